import QRCode from 'qrcode';

/** Longest text a QR here carries (QPay's QR text, an e-barimt's QR data). */
const MAX_QR_TEXT = 2000;

/**
 * A QR code of `text` as a PNG in base64 (QPay's `qr_image` form), made on the server with the
 * `qrcode` package (decision 0017). Bounded input, so a caller cannot make it work hard.
 */
export async function qrPngBase64(text: string): Promise<string> {
  if (text.length === 0 || text.length > MAX_QR_TEXT) throw new RangeError('QR text length out of range');
  const png = await QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 256 });
  return png.toString('base64');
}

/** The same as a `data:` URL for an `<img>`. */
export async function qrDataUrl(text: string): Promise<string> {
  return `data:image/png;base64,${await qrPngBase64(text)}`;
}
