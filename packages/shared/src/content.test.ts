import { describe, expect, it } from 'vitest';
import { contentCardInputSchema, feedbackRequestSchema, landingDataSchema } from './content.js';
import { toEmbedUrl } from './embed-url.js';

const YT = 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ';
const fbEmbed = (href: string) =>
  `https://www.facebook.com/plugins/video.php?href=${encodeURIComponent(href)}&show_text=false`;

describe('toEmbedUrl turns the video links of product.md §2 into embeddable addresses', () => {
  it.each([
    ['a YouTube watch link', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'],
    ['a YouTube watch link with more parameters', 'https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s&list=PL1'],
    ['a mobile YouTube watch link', 'https://m.youtube.com/watch?v=dQw4w9WgXcQ'],
    ['a youtu.be short link', 'https://youtu.be/dQw4w9WgXcQ'],
    ['a youtu.be link with a share parameter', 'https://youtu.be/dQw4w9WgXcQ?si=abc123'],
    ['a YouTube Shorts link', 'https://www.youtube.com/shorts/dQw4w9WgXcQ'],
    ['a YouTube embed link', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['a privacy-enhanced embed link', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0'],
    ['a link with spaces around it', '  https://www.youtube.com/watch?v=dQw4w9WgXcQ  '],
  ])('%s', (_shape, link) => {
    expect(toEmbedUrl(link)).toBe(YT);
  });

  it.each([
    [
      'a page video link',
      'https://www.facebook.com/tunes.mn/videos/1234567890/',
      'https://www.facebook.com/tunes.mn/videos/1234567890/',
    ],
    [
      'a page video link with a slug',
      'https://www.facebook.com/tunes.mn/videos/live-show/1234567890',
      'https://www.facebook.com/tunes.mn/videos/live-show/1234567890',
    ],
    [
      'a watch link',
      'https://www.facebook.com/watch/?v=1234567890',
      'https://www.facebook.com/watch/?v=1234567890',
    ],
    [
      'a mobile watch link',
      'https://m.facebook.com/watch?v=1234567890&ref=share',
      'https://www.facebook.com/watch?v=1234567890',
    ],
    ['a reel link', 'https://www.facebook.com/reel/1234567890', 'https://www.facebook.com/reel/1234567890'],
    ['an fb.watch short link', 'https://fb.watch/aBc-12/', 'https://fb.watch/aBc-12/'],
  ])('a Facebook %s', (_shape, link, canonical) => {
    expect(toEmbedUrl(link)).toBe(fbEmbed(canonical));
  });

  it('keeps a Facebook video plugin link embeddable', () => {
    const embed = fbEmbed('https://www.facebook.com/tunes.mn/videos/1234567890/');
    expect(toEmbedUrl(embed)).toBe(embed);
  });

  it.each([
    ['not a URL', 'youtube dQw4w9WgXcQ'],
    ['an empty string', ''],
    ['a javascript: link', 'javascript:alert(1)//youtube.com/watch?v=dQw4w9WgXcQ'],
    ['a data: link', 'data:text/html,<b>x</b>'],
    ['another video site', 'https://vimeo.com/123456'],
    ['a look-alike host', 'https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ'],
    ['a YouTube channel page', 'https://www.youtube.com/@tunes'],
    ['a watch link without a video id', 'https://www.youtube.com/watch?list=PL1'],
    ['a watch link with a malformed id', 'https://www.youtube.com/watch?v=short'],
    ['a Shorts link with a malformed id', 'https://www.youtube.com/shorts/abc"><script>'],
    ['a youtu.be link with a path', 'https://youtu.be/dQw4w9WgXcQ/extra'],
    ['a Facebook profile page', 'https://www.facebook.com/tunes.mn'],
    ['a Facebook photo', 'https://www.facebook.com/photo/?fbid=123'],
    ['a Facebook plugin wrapping another site', fbEmbed('https://evil.example/videos/1')],
    ['an ftp link', 'ftp://www.youtube.com/watch?v=dQw4w9WgXcQ'],
  ])('rejects %s', (_shape, link) => {
    expect(toEmbedUrl(link)).toBeNull();
  });
});

describe('content schemas', () => {
  const landing = {
    bannerDescEn: { title: 'Title', description: 'Description' },
    bannerDescMn: { title: 'Гарчиг', description: 'Тайлбар' },
    musicVideo: 'https://youtu.be/dQw4w9WgXcQ',
    musicVideoImage: '/api/content/images/video.svg',
    reels: [
      { url: 'https://www.youtube.com/shorts/dQw4w9WgXcQ', description: 'One' },
      { url: 'https://www.youtube.com/embed/dQw4w9WgXcQ', description: 'Two' },
      { url: 'https://www.facebook.com/reel/1234567890', description: 'Three' },
    ],
  };

  it('accepts landing data with three embeddable reels', () => {
    expect(landingDataSchema.safeParse(landing).success).toBe(true);
  });

  it('rejects a reel that cannot be embedded and a count other than three', () => {
    const badReel = {
      ...landing,
      reels: [{ url: 'https://vimeo.com/1', description: 'x' }, ...landing.reels.slice(1)],
    };
    expect(landingDataSchema.safeParse(badReel).success).toBe(false);
    expect(landingDataSchema.safeParse({ ...landing, reels: landing.reels.slice(0, 2) }).success).toBe(false);
  });

  it('accepts only http(s) card links and http(s) or site-path images', () => {
    const card = {
      type: 'SONG',
      title: 'Song',
      tunesUrl: 'https://tunes.mn/song/1',
      image: '/api/content/images/a.svg',
    };
    expect(contentCardInputSchema.safeParse(card).success).toBe(true);
    expect(contentCardInputSchema.safeParse({ ...card, tunesUrl: 'javascript:alert(1)' }).success).toBe(
      false,
    );
    expect(contentCardInputSchema.safeParse({ ...card, image: '//evil.example/a.svg' }).success).toBe(false);
    expect(contentCardInputSchema.safeParse({ ...card, image: 'data:image/svg+xml,<svg/>' }).success).toBe(
      false,
    );
    expect(contentCardInputSchema.safeParse({ ...card, type: 'ALBUM' }).success).toBe(false);
  });

  it('requires every feedback field and limits their length', () => {
    const ok = { name: 'Bat', email: 'bat@example.mn', feedback: 'Great app' };
    expect(feedbackRequestSchema.safeParse(ok).success).toBe(true);
    expect(feedbackRequestSchema.safeParse({ ...ok, name: '  ' }).success).toBe(false);
    expect(feedbackRequestSchema.safeParse({ ...ok, email: 'bat' }).success).toBe(false);
    expect(feedbackRequestSchema.safeParse({ ...ok, feedback: 'x'.repeat(2001) }).success).toBe(false);
  });
});
