import { createHash } from 'node:crypto';

/**
 * The demo set's own artwork, drawn here as SVG (no third-party images): abstract cover art in
 * the style of a music service — album covers for songs and playlists, a lit figure for artists,
 * a concert stage for the music video — with no words drawn into the picture (the card's title
 * sits beside it, in the reader's language). Each drawing follows from the artwork's key, so
 * every card looks different and the same key always draws the same picture. Each file is
 * served under a content-hashed name, so its address changes whenever its drawing does and it
 * can be cached for a year as immutable.
 */

export const IMAGE_ROUTE_PREFIX = '/api/content/images';

export interface DemoArtwork {
  key: string;
  kind: 'round' | 'square' | 'wide';
  /** What the picture stands for; not drawn (the card shows it as text). */
  label: string;
  hue: number;
}

/** A small deterministic random source (mulberry32) seeded from the key. */
function randomFrom(key: string): () => number {
  let seed = createHash('sha256').update(key).digest().readUInt32LE(0);
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const round1 = (value: number) => Math.round(value * 10) / 10;

interface Palette {
  deep: string;
  base: string;
  light: string;
  accent: string;
  accentSoft: string;
}

function paletteFor(hue: number, random: () => number): Palette {
  const h = Math.round(hue + random() * 20) % 360;
  const accent = (h + 140 + Math.round(random() * 80)) % 360;
  return {
    deep: `hsl(${h} 55% 12%)`,
    base: `hsl(${h} 62% 34%)`,
    light: `hsl(${h} 75% 58%)`,
    accent: `hsl(${accent} 85% 62%)`,
    accentSoft: `hsl(${accent} 70% 45%)`,
  };
}

const background = (p: Palette, size: number) =>
  `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${p.base}"/><stop offset="1" stop-color="${p.deep}"/></linearGradient>` +
  `<radialGradient id="glow" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="${p.accent}" stop-opacity="0.9"/><stop offset="1" stop-color="${p.accent}" stop-opacity="0"/></radialGradient></defs>` +
  `<rect width="${size}" height="${size}" fill="url(#bg)"/>`;

/** Album-cover motifs on a 400 × 400 square; one is chosen per key. */
const COVERS: ((p: Palette, random: () => number) => string)[] = [
  // Vinyl rings off centre.
  (p, random) => {
    const cx = round1(120 + random() * 160);
    const cy = round1(120 + random() * 160);
    const rings = Array.from({ length: 7 }, (_, index) => {
      const r = 30 + index * 34;
      const color = index % 2 ? p.accent : p.light;
      return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="${color}" stroke-opacity="${round1(0.85 - index * 0.1)}" stroke-width="${index % 3 === 0 ? 14 : 5}"/>`;
    }).join('');
    return `${rings}<circle cx="${cx}" cy="${cy}" r="14" fill="${p.deep}"/>`;
  },
  // Sun over layered hills: the steppe at dusk.
  (p, random) => {
    const sunX = round1(110 + random() * 180);
    const hills = [0, 1, 2]
      .map((layer) => {
        const y = 250 + layer * 45;
        const a = round1(y - 30 - random() * 50);
        const b = round1(y - 10 - random() * 40);
        const color = layer === 2 ? p.deep : layer === 1 ? p.base : p.accentSoft;
        return `<path d="M0 ${y} C 100 ${a} 200 ${b + 30} 300 ${b} S 380 ${y - 20} 400 ${y - 10} V400 H0 Z" fill="${color}" opacity="${layer === 0 ? 0.8 : 1}"/>`;
      })
      .join('');
    return `<circle cx="${sunX}" cy="190" r="150" fill="url(#glow)" opacity="0.55"/><circle cx="${sunX}" cy="190" r="62" fill="${p.accent}"/>${hills}`;
  },
  // Sound waves across the cover.
  (p, random) => {
    const waves = Array.from({ length: 9 }, (_, index) => {
      const y = 60 + index * 36;
      const amplitude = round1(10 + random() * 40);
      const color = index % 3 === 0 ? p.accent : p.light;
      return `<path d="M-10 ${y} Q 50 ${y - amplitude} 100 ${y} T 200 ${y} T 300 ${y} T 410 ${y}" fill="none" stroke="${color}" stroke-width="${index % 3 === 0 ? 8 : 3}" stroke-linecap="round" opacity="${round1(0.45 + random() * 0.5)}"/>`;
    }).join('');
    return waves;
  },
  // A grid of dots of many sizes, like a speaker grille.
  (p, random) => {
    const dots: string[] = [];
    for (let row = 0; row < 8; row++)
      for (let column = 0; column < 8; column++) {
        const r = round1(4 + random() * 18);
        const color = random() < 0.2 ? p.accent : p.light;
        dots.push(
          `<circle cx="${35 + column * 47}" cy="${35 + row * 47}" r="${r}" fill="${color}" opacity="${round1(0.35 + random() * 0.6)}"/>`,
        );
      }
    return dots.join('');
  },
  // Diagonal bands of colour.
  (p, random) => {
    const bands = Array.from({ length: 6 }, (_, index) => {
      const offset = -200 + index * 110 + round1(random() * 40);
      const width = round1(30 + random() * 60);
      const color = [p.accent, p.light, p.accentSoft][index % 3];
      return `<path d="M${offset} 400 L${offset + 400} 0 L${offset + 400 + width} 0 L${offset + width} 400 Z" fill="${color}" opacity="${round1(0.55 + random() * 0.4)}"/>`;
    }).join('');
    return `${bands}<circle cx="200" cy="200" r="70" fill="${p.deep}" opacity="0.85"/>`;
  },
  // Overlapping soft circles of light.
  (p, random) => {
    const blobs = Array.from({ length: 5 }, (_, index) => {
      const color = [p.accent, p.light, p.accentSoft, p.light, p.accent][index];
      return `<circle cx="${round1(60 + random() * 280)}" cy="${round1(60 + random() * 280)}" r="${round1(60 + random() * 90)}" fill="${color}" opacity="${round1(0.35 + random() * 0.35)}"/>`;
    }).join('');
    return `<g style="mix-blend-mode:screen">${blobs}</g>`;
  },
  // Equaliser bars rising from the floor.
  (p, random) => {
    const bars = Array.from({ length: 12 }, (_, index) => {
      const height = round1(60 + random() * 260);
      const color = index % 4 === 0 ? p.accent : p.light;
      return `<rect x="${22 + index * 31}" y="${round1(370 - height)}" width="20" height="${height}" rx="10" fill="${color}" opacity="${round1(0.6 + random() * 0.4)}"/>`;
    }).join('');
    return `<circle cx="200" cy="150" r="170" fill="url(#glow)" opacity="0.35"/>${bars}`;
  },
];

/** An artist: a figure lit from behind against an abstract backdrop, drawn in a circle. */
function drawArtist(p: Palette, random: () => number): string {
  const backdrop = COVERS[Math.floor(random() * COVERS.length)]?.(p, random) ?? '';
  const tilt = round1(-8 + random() * 16);
  const headY = round1(165 + random() * 20);
  return [
    backdrop,
    `<circle cx="200" cy="${headY}" r="120" fill="url(#glow)" opacity="0.6"/>`,
    `<g transform="rotate(${tilt} 200 400)" fill="${p.deep}">`,
    `<ellipse cx="200" cy="${headY}" rx="58" ry="66"/>`,
    `<path d="M70 420 C 80 300 130 ${headY + 75} 200 ${headY + 75} S 320 300 330 420 Z"/>`,
    '</g>',
  ].join('');
}

/** The music video: a stage under coloured beams and a crowd with raised hands, 640 × 360. */
function drawStage(p: Palette, random: () => number): string {
  const beams = Array.from({ length: 5 }, (_, index) => {
    const x = 80 + index * 120;
    const spread = round1(60 + random() * 60);
    const color = index % 2 ? p.accent : p.light;
    return `<path d="M${x} 0 L${round1(x - spread)} 300 L${round1(x + spread)} 300 Z" fill="${color}" opacity="${round1(0.18 + random() * 0.2)}"/>`;
  }).join('');
  const crowd: string[] = [];
  for (let index = 0; index < 22; index++) {
    const x = round1(index * 30 + random() * 12);
    const y = round1(300 + random() * 18);
    crowd.push(`<circle cx="${x}" cy="${y}" r="${round1(13 + random() * 4)}"/>`);
    if (random() < 0.35)
      crowd.push(
        `<path d="M${x - 3} ${y} L${round1(x - 8 + random() * 16)} ${round1(y - 60 - random() * 30)}" stroke="${p.deep}" stroke-width="7" stroke-linecap="round"/>`,
      );
  }
  return [
    '<defs>',
    `<linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${p.deep}"/><stop offset="1" stop-color="${p.base}"/></linearGradient>`,
    `<radialGradient id="glow" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="${p.accent}" stop-opacity="0.9"/><stop offset="1" stop-color="${p.accent}" stop-opacity="0"/></radialGradient>`,
    '</defs>',
    '<rect width="640" height="360" fill="url(#bg)"/>',
    `<ellipse cx="320" cy="250" rx="260" ry="90" fill="url(#glow)" opacity="0.6"/>`,
    beams,
    `<rect x="120" y="240" width="400" height="22" rx="4" fill="${p.deep}" opacity="0.9"/>`,
    `<g fill="${p.deep}">${crowd.join('')}<rect y="318" width="640" height="42"/></g>`,
  ].join('');
}

function drawArtwork({ key, kind, hue }: DemoArtwork): string {
  const random = randomFrom(key);
  const palette = paletteFor(hue, random);
  if (kind === 'wide') {
    return `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360">${drawStage(palette, random)}</svg>`;
  }
  const picture =
    kind === 'round'
      ? drawArtist(palette, random)
      : (COVERS[Math.floor(random() * COVERS.length)]?.(palette, random) ?? '');
  const clip = kind === 'round' ? '<clipPath id="frame"><circle cx="200" cy="200" r="200"/></clipPath>' : '';
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400">',
    clip ? `<defs>${clip}</defs>` : '',
    `<g${clip ? ' clip-path="url(#frame)"' : ''}>${background(palette, 400)}${picture}</g>`,
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
