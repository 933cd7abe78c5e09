import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Answers shorter than this go out as they are (the compression plugin's threshold too). */
export const COMPRESS_FROM_BYTES = 1024;

/** One way of sending a cached answer: its status, its headers and its bytes. */
export interface Representation {
  status: 200 | 304;
  /** Content type, length and coding, ETag, caching: everything but the security headers and the request id. */
  headers: Readonly<Record<string, string>>;
  body: Buffer | undefined;
}

/**
 * A ready-to-send JSON answer: serialized once, compressed once (brotli and gzip, when it is
 * long enough to gain), validated by its ETag; each way of sending it is built with it.
 */
export interface CachedAnswer {
  etag: string;
  identity: Representation;
  br: Representation | undefined;
  gzip: Representation | undefined;
  notModified: Representation;
}

function representation(
  status: Representation['status'],
  headers: Record<string, string>,
  body: Buffer | undefined,
): Representation {
  return { status, headers: body ? { ...headers, 'content-length': String(body.length) } : headers, body };
}

/** The answer's bytes and codings; its ETag names the bytes, so an unchanged answer keeps it. */
export function toCachedAnswer(value: unknown): CachedAnswer {
  return toCachedBytes(Buffer.from(JSON.stringify(value)), 'application/json; charset=utf-8');
}

/**
 * `body` of `contentType` as a cached answer. `varyOn` names request headers besides
 * Accept-Encoding that choose the answer (a prerendered page's `cookie`: its language).
 */
export function toCachedBytes(
  body: Buffer,
  contentType: string,
  varyOn: readonly string[] = [],
): CachedAnswer {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"`;
  const validators = {
    etag,
    'cache-control': 'no-cache',
    ...(varyOn.length > 0 ? { vary: varyOn.join(', ') } : {}),
  };
  const typed = { ...validators, 'content-type': contentType };
  const long = body.length >= COMPRESS_FROM_BYTES;
  const vary = [...varyOn, 'accept-encoding'].join(', ');
  const coded = (coding: 'br' | 'gzip', bytes: Buffer) =>
    representation(200, { ...typed, vary, 'content-encoding': coding }, bytes);
  return {
    etag,
    identity: representation(200, long ? { ...typed, vary } : typed, body),
    br: long
      ? coded('br', brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
      : undefined,
    gzip: long ? coded('gzip', gzipSync(body, { level: 9 })) : undefined,
    notModified: representation(304, validators, undefined),
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

/** The last Accept-Encoding values seen and their coding: browsers send a handful of them. */
const codingOf = new Map<string, 'br' | 'gzip' | undefined>();

/**
 * How `answer` goes to a client with these request headers: 304 when it holds the answer,
 * else compressed ahead of time for the coding it takes.
 */
function representationFor(
  answer: CachedAnswer,
  ifNoneMatch: string | undefined,
  acceptEncoding: string | undefined,
): Representation {
  if (ifNoneMatch === answer.etag) return answer.notModified;
  const { br, gzip } = answer;
  if (!br || !gzip || !acceptEncoding) return answer.identity;
  let coding = codingOf.get(acceptEncoding);
  if (coding === undefined && !codingOf.has(acceptEncoding)) {
    coding = preferredCoding(acceptEncoding);
    if (codingOf.size >= 64) codingOf.clear();
    codingOf.set(acceptEncoding, coding);
  }
  return coding === 'br' ? br : coding === 'gzip' ? gzip : answer.identity;
}

/**
 * Sends a cached answer as its stored bytes (see `representationFor`). Routes that send these
 * opt out of the compression plugin (`compress: false`), which would compress the same bytes
 * again on every request.
 */
export function sendCachedAnswer(request: FastifyRequest, reply: FastifyReply, answer: CachedAnswer) {
  const { headers } = request;
  const chosen = representationFor(answer, headers['if-none-match'], headers['accept-encoding']);
  return reply.code(chosen.status).headers(chosen.headers).send(chosen.body);
}

/**
 * A revision that moves on its own at the turn of every `periodMs`, for data no route or
 * command changes (it comes with a migration or a seed): each process reads it again once per
 * period, at no cost in between.
 */
export function revisionEvery(periodMs: number, nowMs: () => number): () => Promise<number> {
  return async () => Math.floor(nowMs() / periodMs);
}

/**
 * Whether something checked at `checkedAt` is younger than `ttlMs` at `nowMs` (ms of one clock).
 * A clock set back (an NTP step, never the development clock) makes it due again rather than
 * trusted until the clock catches up. The cache below and the prerendered pages judge by it.
 */
export function checkedWithin(checkedAt: number, nowMs: number, ttlMs: number): boolean {
  const age = nowMs - checkedAt;
  return age >= 0 && age < ttlMs;
}

interface Entry {
  revision: number;
  answer: Promise<CachedAnswer | null>;
}

/**
 * Per-process cache of public answers that are the same for every visitor (landing data, card
 * list, a merchant's plans).
 *
 * The data's revision is re-read at most once per `ttlMs` (for the content, one primary-key
 * lookup, shared by all requests waiting at that moment; for the plans, the clock's minute); an
 * import bumps it, so every API process drops its copies within `ttlMs` of an import, however
 * many processes run. Between checks, requests are answered from memory without touching the
 * database. Only answers are kept: a miss (`load` gives null or fails: no content yet, no such
 * merchant) is read again next time, so requests for made-up keys cannot fill the cache. See
 * docs/decisions/0006-content.md and 0024-plans-answered-from-memory.md.
 */
export class AnswerCache {
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

  /** The answer under `key`; null only when `load` can give null (nothing to answer yet). */
  async get<Value>(
    key: string,
    load: () => Promise<Value>,
  ): Promise<CachedAnswer | (null extends Value ? null : never)>;
  async get(key: string, load: () => Promise<unknown>): Promise<CachedAnswer | null> {
    const revision = await this.#currentRevision();
    const cached = this.#entries.get(key);
    if (cached && cached.revision === revision) return cached.answer;
    const entry: Entry = {
      revision,
      answer: load().then((value) => (value === null ? null : toCachedAnswer(value))),
    };
    const { answer } = entry;
    this.#entries.set(key, entry);
    // A failed load or a miss must not stick: the next request tries the database again.
    const forget = () => {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
    };
    answer.then((value) => {
      if (value === null) forget();
    }, forget);
    return answer;
  }

  async #currentRevision(): Promise<number> {
    if (checkedWithin(this.#checkedAt, this.nowMs(), this.ttlMs)) return this.#revision;
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
