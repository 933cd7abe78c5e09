import { createHash } from 'node:crypto';
import { API_ERROR_CODES } from '@tunes/shared/error-codes';
import type { Deps } from '../../deps.js';
import { AppError } from '../../lib/errors.js';
import './tables.js';

/** Where uploaded images are served: stable, content-addressed URLs. */
export const UPLOAD_ROUTE = '/api/content/uploads';
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;

const KINDS = [
  {
    type: 'image/png',
    ext: 'png',
    test: (b: Buffer) => b.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex')),
  },
  { type: 'image/jpeg', ext: 'jpg', test: (b: Buffer) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    type: 'image/webp',
    ext: 'webp',
    test: (b: Buffer) =>
      b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
] as const;

/** The image's kind judged by its first bytes (never by the name or the declared type). */
export function imageKind(body: Buffer) {
  return KINDS.find((kind) => body.length >= 12 && kind.test(body));
}

/** Stores an image (PNG, JPEG or WebP, at most 2 MB) and answers its URL; the same bytes, the same URL. */
export async function storeImage(deps: Pick<Deps, 'db' | 'clock'>, body: Buffer): Promise<string> {
  if (body.length > IMAGE_MAX_BYTES) {
    throw new AppError(
      413,
      API_ERROR_CODES.payloadTooLarge,
      `An image may be at most ${IMAGE_MAX_BYTES} bytes.`,
    );
  }
  const kind = imageKind(body);
  if (!kind)
    throw new AppError(415, API_ERROR_CODES.unsupportedMediaType, 'The image must be PNG, JPEG or WebP.');
  const file = `${createHash('sha256').update(body).digest('hex')}.${kind.ext}`;
  await deps.db
    .insertInto('content_images')
    .values({ file, content_type: kind.type, body, created_at: deps.clock.now() })
    .onConflict((oc) => oc.column('file').doNothing())
    .execute();
  return `${UPLOAD_ROUTE}/${file}`;
}

export async function readUploadedImage(deps: Pick<Deps, 'db'>, file: string) {
  if (!/^[0-9a-f]{64}\.(png|jpg|webp)$/.test(file)) return null;
  const row = await deps.db
    .selectFrom('content_images')
    .select(['content_type', 'body'])
    .where('file', '=', file)
    .executeTakeFirst();
  return row ? { contentType: row.content_type, body: Buffer.from(row.body) } : null;
}
