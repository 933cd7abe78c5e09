import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Answers shorter than this go out as they are (the compression plugin's threshold too). */
export const COMPRESS_FROM_BYTES = 1024;

/**
 * A ready-to-send JSON answer: serialized once, compressed once (brotli and gzip, when it is
 * long enough to gain), sent as bytes, validated by its ETag.
 */
export interface CachedAnswer {
  body: Buffer;
  br: Buffer | undefined;
  gzip: Buffer | undefined;
  etag: string;
}

export function toCachedAnswer(revision: number, value: unknown): CachedAnswer {
  const body = Buffer.from(JSON.stringify(value));
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 16);
  const long = body.length >= COMPRESS_FROM_BYTES;
  return {
    body,
    br: long ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }) : undefined,
    gzip: long ? gzipSync(body, { level: 9 }) : undefined,
    etag: `"${revision}-${hash}"`,
  };
}

/** The coding a client takes, from its Accept-Encoding: brotli first, then gzip (none at q=0). */
export function preferredCoding(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  if (!acceptEncoding) return undefined;
  let gzip = false;
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.split(';').map((piece) => piece.trim());
    if (params.some((param) => /^q=0(\.0*)?$/.test(param))) continue;
    if (name === 'br') return 'br';
    if (name === 'gzip' || name === '*') gzip = true;
  }
  return gzip ? 'gzip' : undefined;
}

interface Entry {
  revision: number;
  answer: Promise<CachedAnswer | null>;
}

/**
 * Per-process cache of the public content answers (landing data, card list).
 *
 * The database's content revision is re-read at most once per `ttlMs` (one primary-key lookup,
 * shared by all requests waiting at that moment); an import bumps it, so every API process drops
 * its copies within `ttlMs` of an import, however many processes run. Between checks, requests
 * are answered from memory without touching the database. See docs/decisions/0006-content.md.
 */
export class ContentAnswerCache {
  #entries = new Map<string, Entry>();
  #revision = -1;
  #checkedAt = Number.NEGATIVE_INFINITY;
  #check: Promise<number> | undefined;

  constructor(
    private readonly readRevision: () => Promise<number>,
    private readonly nowMs: () => number,
    private readonly ttlMs: number,
  ) {}

  /** Forgets what is known of the revision: the next request reads it again (a publish). */
  invalidate(): void {
    this.#checkedAt = Number.NEGATIVE_INFINITY;
  }

  async get(key: string, load: () => Promise<unknown | null>): Promise<CachedAnswer | null> {
    const revision = await this.#currentRevision();
    const cached = this.#entries.get(key);
    if (cached && cached.revision === revision) return cached.answer;
    const answer = load().then((value) => (value === null ? null : toCachedAnswer(revision, value)));
    const entry = { revision, answer };
    this.#entries.set(key, entry);
    // A failed load must not stick: the next request tries the database again.
    answer.catch(() => {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
    });
    return answer;
  }

  async #currentRevision(): Promise<number> {
    if (this.nowMs() - this.#checkedAt < this.ttlMs) return this.#revision;
    this.#check ??= this.readRevision()
      .then((revision) => {
        this.#revision = revision;
        this.#checkedAt = this.nowMs();
        return revision;
      })
      .finally(() => {
        this.#check = undefined;
      });
    return this.#check;
  }
}
