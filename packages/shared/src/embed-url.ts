/** Video links of product.md §2 → embeddable addresses. Dependency-free so the site's landing chunk stays small. */

const YOUTUBE_ID = /^[\w-]{11}$/;
const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com']);
const YOUTUBE_EMBED_HOSTS = new Set(['youtube-nocookie.com', 'www.youtube-nocookie.com', ...YOUTUBE_HOSTS]);
const FACEBOOK_HOSTS = new Set(['facebook.com', 'www.facebook.com', 'm.facebook.com', 'web.facebook.com']);

const youtubeEmbed = (id: string | null | undefined) =>
  id && YOUTUBE_ID.test(id) ? `https://www.youtube-nocookie.com/embed/${id}` : null;

const facebookEmbed = (videoUrl: string) =>
  `https://www.facebook.com/plugins/video.php?href=${encodeURIComponent(videoUrl)}&show_text=false`;

/** A Facebook page that shows one video: /watch?v=, /<page>/videos/<id>, /reel/<id>, /video.php?v=. */
function isFacebookVideoPath(url: URL): boolean {
  const path = url.pathname;
  if (/^\/watch\/?$/.test(path) || /^\/video\.php$/.test(path))
    return /^\d+$/.test(url.searchParams.get('v') ?? '');
  return /^\/(?:[\w.-]+\/)?videos\/(?:[\w.-]+\/)?\d+\/?$/.test(path) || /^\/reel\/\d+\/?$/.test(path);
}

/**
 * Turns a video link of product.md §2 into an address a frame can embed: YouTube watch, youtu.be,
 * Shorts and embed links become a privacy-enhanced YouTube embed; Facebook video links become
 * Facebook's video plugin. Anything else answers null, so it is never put in a frame.
 */
export function toEmbedUrl(link: string): string | null {
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const host = url.hostname.toLowerCase();
  const segments = url.pathname.split('/').filter(Boolean);

  if (host === 'youtu.be') return segments.length === 1 ? youtubeEmbed(segments[0]) : null;
  if (YOUTUBE_HOSTS.has(host) && segments[0] === 'watch' && segments.length === 1) {
    return youtubeEmbed(url.searchParams.get('v'));
  }
  if (
    YOUTUBE_HOSTS.has(host) &&
    (segments[0] === 'shorts' || segments[0] === 'live') &&
    segments.length === 2
  ) {
    return youtubeEmbed(segments[1]);
  }
  if (YOUTUBE_EMBED_HOSTS.has(host) && segments[0] === 'embed' && segments.length === 2) {
    return youtubeEmbed(segments[1]);
  }

  if (host === 'fb.watch' && segments.length === 1 && /^[\w-]+$/.test(segments[0] ?? '')) {
    return facebookEmbed(`https://fb.watch/${segments[0]}/`);
  }
  if (FACEBOOK_HOSTS.has(host)) {
    if (url.pathname === '/plugins/video.php') {
      const inner = toEmbedUrl(url.searchParams.get('href') ?? '');
      return inner?.startsWith('https://www.facebook.com/plugins/') ? inner : null;
    }
    if (isFacebookVideoPath(url)) {
      const canonical = new URL(`https://www.facebook.com${url.pathname}`);
      const v = url.searchParams.get('v');
      if (v) canonical.searchParams.set('v', v);
      return facebookEmbed(canonical.toString());
    }
  }
  return null;
}
