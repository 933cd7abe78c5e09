import { createHash } from 'node:crypto';

/**
 * The demo set's own artwork, drawn here as SVG (no third-party images). Each file is served
 * under a content-hashed name, so its address changes whenever its drawing does and it can be
 * cached for a year as immutable.
 */

export const IMAGE_ROUTE_PREFIX = '/api/content/images';

export interface DemoArtwork {
  key: string;
  kind: 'round' | 'square' | 'wide';
  label: string;
  hue: number;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function initials(label: string): string {
  return label
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');
}

function drawArtwork({ kind, label, hue }: DemoArtwork): string {
  const [width, height] = kind === 'wide' ? [640, 360] : [400, 400];
  const from = `hsl(${hue} 70% 45%)`;
  const to = `hsl(${(hue + 60) % 360} 75% 25%)`;
  const text = escapeXml(kind === 'wide' ? label : initials(label));
  const shape =
    kind === 'round'
      ? `<circle cx="200" cy="200" r="200" fill="url(#g)"/>`
      : `<rect width="${width}" height="${height}" fill="url(#g)"/>`;
  const ornament =
    kind === 'wide'
      ? `<path d="M0 250 C 160 210 320 240 480 215 S 600 200 640 205 L640 360 L0 360 Z" fill="rgb(0 0 0 / 0.25)"/>`
      : `<circle cx="200" cy="200" r="150" fill="none" stroke="rgb(255 255 255 / 0.18)" stroke-width="18"/>`;
  const fontSize = kind === 'wide' ? 30 : 120;
  const y = kind === 'wide' ? 300 : 242;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>`,
    shape,
    ornament,
    `<text x="${width / 2}" y="${y}" text-anchor="middle" font-family="system-ui, sans-serif" font-weight="800" font-size="${fontSize}" fill="#fff">${text}</text>`,
    '</svg>',
  ].join('');
}

export interface ServedImage {
  path: string;
  body: Buffer;
}

/** Draws each artwork once and names it `<key>.<hash>.svg`. */
export function buildDemoImages(artworks: readonly DemoArtwork[]): Map<string, ServedImage> {
  const images = new Map<string, ServedImage>();
  for (const artwork of artworks) {
    const body = Buffer.from(drawArtwork(artwork));
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 10);
    images.set(artwork.key, { path: `${IMAGE_ROUTE_PREFIX}/${artwork.key}.${hash}.svg`, body });
  }
  return images;
}
