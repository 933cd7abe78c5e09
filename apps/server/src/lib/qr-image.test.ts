import { inflateSync } from 'node:zlib';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { qrPngBase64 } from './qr-image.js';

/** An 8-bit grey (0) or RGBA (6) PNG's pixels as one grey byte each (the red channel). */
function greyPixels(png: Buffer) {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const channels = { 0: 1, 6: 4 }[png[25] as 0 | 6];
  if (png[24] !== 8 || !channels) throw new Error(`unexpected PNG: depth ${png[24]}, colour type ${png[25]}`);
  const data: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') data.push(png.subarray(at + 8, at + 8 + length));
    at += length + 12;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const row = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    const up = rows[y - 1] ?? Buffer.alloc(stride);
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? (row[x - channels] as number) : 0;
      const b = up[x] as number;
      const c = x >= channels ? (up[x - channels] as number) : 0;
      const p = a + b - c;
      const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      const add = [0, a, b, (a + b) >> 1, paeth][filter as number] as number;
      row[x] = ((row[x] as number) + add) & 255;
    }
    rows.push(row);
  }
  return { width, height, grey: rows.flatMap((row) => [...row].filter((_, x) => x % channels === 0)) };
}

describe('qrPngBase64', () => {
  it('is a PNG with the very pixels of the library’s default rendering, in fewer bytes', async () => {
    const text = 'https://qpay.mn/q/?q=0002010102121531279404962794049600000000000000005204599953034965406';
    const ours = Buffer.from(await qrPngBase64(text), 'base64');
    const reference = await QRCode.toBuffer(text, {
      type: 'png',
      errorCorrectionLevel: 'M',
      margin: 2,
      width: 256,
    });
    const [mine, theirs] = [greyPixels(ours), greyPixels(reference)];
    expect([mine.width, mine.height]).toEqual([256, 256]);
    expect(new Set(mine.grey)).toEqual(new Set([0, 255]));
    expect(mine.grey).toEqual(theirs.grey);
    expect(ours.length).toBeLessThan(reference.length);
  });

  it('refuses an empty or an overlong text', async () => {
    await expect(qrPngBase64('')).rejects.toThrow(RangeError);
    await expect(qrPngBase64('x'.repeat(2001))).rejects.toThrow(RangeError);
  });
});
