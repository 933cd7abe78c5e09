import type { ContentImport, ContentType } from '@tunes/shared/content';
import { buildDemoImages, type DemoArtwork } from './demo-images.js';

/** The seeded landing content (product.md §11): fictional artists, songs and playlists with our own art. */

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

const SONGS: { title: string; trending: boolean }[] = [
  { title: 'Morning on the Steppe', trending: true },
  { title: 'Eternal Blue Sky', trending: true },
  { title: 'Ulaanbaatar Nights', trending: true },
  { title: 'Horse Head Fiddle', trending: false },
  { title: 'Winter Camp', trending: true },
  { title: 'Golden Eagle', trending: false },
  { title: 'Sand Dunes', trending: true },
  { title: 'Mother’s Song', trending: false },
  { title: 'Long Road Home', trending: true },
  { title: 'Naadam Day', trending: true },
  { title: 'Silver Lake', trending: false },
  { title: 'Northern Lights', trending: true },
];

/** The Mongolian title of every demo card, by its English one (`titleMn` of the import). */
const MONGOLIAN_TITLES: Record<string, string> = {
  'Steppe Echo': 'Талын цуурай',
  'Khangai Winds': 'Хангайн салхи',
  'Nomad Lights': 'Нүүдэлчний гэрэл',
  'Blue Sky Choir': 'Хөх тэнгэр найрал дуу',
  'Gobi Pulse': 'Говийн хэмнэл',
  'Tuul River Band': 'Туул гол хамтлаг',
  'Morin Strings': 'Морин хуур чавхдас',
  'Altai Voices': 'Алтайн дуу хоолой',
  'Morning on the Steppe': 'Тал нутгийн өглөө',
  'Eternal Blue Sky': 'Мөнх хөх тэнгэр',
  'Ulaanbaatar Nights': 'Улаанбаатарын шөнө',
  'Horse Head Fiddle': 'Морин хуур',
  'Winter Camp': 'Өвөлжөө',
  'Golden Eagle': 'Алтан бүргэд',
  'Sand Dunes': 'Элсэн манхан',
  'Mother’s Song': 'Ээжийн дуу',
  'Long Road Home': 'Гэр рүү холын зам',
  'Naadam Day': 'Наадмын өдөр',
  'Silver Lake': 'Мөнгөн нуур',
  'Northern Lights': 'Хойд зүгийн гэрэл',
  'Top 50 Mongolia': 'Монголын шилдэг 50',
  'Morning Focus': 'Өглөөний төвлөрөл',
  'Hip-Hop UB': 'Хип хоп УБ',
  'Throat Singing Classics': 'Хөөмийн сонгодог бүтээлүүд',
  'Road Trip': 'Аяллын дуунууд',
  'Workout Energy': 'Дасгалын эрч хүч',
  'Chill Evenings': 'Тайван үдэш',
  'New Releases': 'Шинэ бүтээлүүд',
};

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
  ...SONGS.map(({ title }, index) => ({
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

function imagePath(key: string): string {
  const image = demoImages.get(key);
  if (!image) throw new Error(`No demo artwork "${key}"`);
  return image.path;
}

const card = (type: ContentType, title: string, trending = false) => ({
  type,
  title,
  titleMn: MONGOLIAN_TITLES[title] ?? title,
  tunesUrl: `https://tunes.mn/${type.toLowerCase()}/${slug(title)}`,
  image: imagePath(`${type.toLowerCase()}-${slug(title)}`),
  trending,
});

export const demoContent: ContentImport = {
  landing: {
    bannerDescEn: {
      title: 'Music for every moment',
      description:
        'Stream Mongolian hits and music from around the world. Go Premium for unlimited skips, offline listening and no ads.',
    },
    bannerDescMn: {
      title: 'Мөч бүрт зориулсан хөгжим',
      description:
        'Монгол болон дэлхийн шилдэг дуунуудыг сонсоорой. Премиум эрхээр хязгааргүй алгасах, офлайн сонсох, зар сурталчилгаагүй.',
    },
    musicVideo: 'https://www.youtube.com/watch?v=jM8dCGIm6yc',
    musicVideoImage: imagePath('music-video-wolf-totem'),
    reels: [
      {
        url: 'https://youtu.be/v4xZUr0BEfE',
        description: 'Backstage in Ulaanbaatar',
        descriptionMn: 'Улаанбаатарын тайзны ар талд',
      },
      {
        url: 'https://www.youtube.com/shorts/jM8dCGIm6yc',
        description: 'Thirty seconds of throat singing',
        descriptionMn: 'Хөөмийн гучин секунд',
      },
      {
        url: 'https://www.youtube.com/embed/v4xZUr0BEfE',
        description: 'Live from the Naadam stage',
        descriptionMn: 'Наадмын тайзнаас шууд',
      },
    ],
  },
  cards: [
    ...ARTISTS.map((name) => card('ARTIST', name)),
    ...SONGS.map(({ title, trending }) => card('SONG', title, trending)),
    ...PLAYLISTS.map((name) => card('PLAYLIST', name)),
  ],
};
