import { buildDemoImages, type DemoArtwork } from './demo-images.js';

/**
 * The artwork of the demo landing content (product.md §11): fictional artists, songs and
 * playlists drawn by us. The content itself, with these images' paths, is in catalog/demo.yaml.
 */

const ARTISTS = [
  'Steppe Echo',
  'Khangai Winds',
  'Nomad Lights',
  'Blue Sky Choir',
  'Gobi Pulse',
  'Tuul River Band',
  'Morin Strings',
  'Altai Voices',
];

const SONGS = [
  'Morning on the Steppe',
  'Eternal Blue Sky',
  'Ulaanbaatar Nights',
  'Horse Head Fiddle',
  'Winter Camp',
  'Golden Eagle',
  'Sand Dunes',
  'Mother’s Song',
  'Long Road Home',
  'Naadam Day',
  'Silver Lake',
  'Northern Lights',
];

const PLAYLISTS = [
  'Top 50 Mongolia',
  'Morning Focus',
  'Hip-Hop UB',
  'Throat Singing Classics',
  'Road Trip',
  'Workout Energy',
  'Chill Evenings',
  'New Releases',
];

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const artworks: DemoArtwork[] = [
  ...ARTISTS.map((label, index) => ({
    key: `artist-${slug(label)}`,
    kind: 'round' as const,
    label,
    hue: index * 45,
  })),
  ...SONGS.map((title, index) => ({
    key: `song-${slug(title)}`,
    kind: 'square' as const,
    label: title,
    hue: (index * 30 + 15) % 360,
  })),
  ...PLAYLISTS.map((label, index) => ({
    key: `playlist-${slug(label)}`,
    kind: 'square' as const,
    label,
    hue: (index * 45 + 200) % 360,
  })),
  { key: 'music-video-wolf-totem', kind: 'wide', label: 'Featured artist · Music video', hue: 20 },
];

/** Every demo image by its hashed path, for the image route. */
export const demoImages = buildDemoImages(artworks);
