import { expect, test } from '../fixtures';
import { LANGUAGES, settle } from './a11y-helpers';

/**
 * Issue 19 (defect 5): the narrow banner image draws nothing that sits behind the headline (it
 * once drew a large play button that did nothing). The image's own drawing is laid out over the
 * banner exactly as the browser shows it (object-fit: cover) and each accent shape is measured.
 */
for (const language of LANGUAGES) {
  for (const width of [320, 360, 600, 1024, 1440]) {
    test(`the banner art stays clear of the headline (${language}, ${width} px)`, async ({ page }) => {
      await page.addInitScript((code) => window.localStorage.setItem('language', code), language);
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/');
      await settle(page);
      const overlaps = await page.evaluate(async () => {
        const image = document.querySelector('main picture img') as HTMLImageElement;
        const headline = document.querySelector('main h1') as HTMLElement;
        const source = image.currentSrc;
        const markup = source.includes(';base64,')
          ? atob(source.slice(source.indexOf(',') + 1))
          : decodeURIComponent(source.slice(source.indexOf(',') + 1));
        const box = image.getBoundingClientRect();
        const layer = document.createElement('div');
        Object.assign(layer.style, {
          position: 'fixed',
          left: `${box.left}px`,
          top: `${box.top}px`,
          width: `${box.width}px`,
          height: `${box.height}px`,
          pointerEvents: 'none',
        });
        layer.innerHTML = markup;
        const svg = layer.querySelector('svg') as SVGSVGElement;
        svg.setAttribute('width', '100%');
        svg.setAttribute('height', '100%');
        // object-fit: cover
        svg.setAttribute('preserveAspectRatio', 'xMidYMid slice');
        document.body.append(layer);
        const title = headline.getBoundingClientRect();
        const accent = Array.from(svg.querySelectorAll('circle, path, polygon, g')).filter((shape) =>
          [shape.getAttribute('stroke'), shape.getAttribute('fill')].includes('#1ed760'),
        );
        const found = accent
          .map((shape) => shape.getBoundingClientRect())
          .filter(
            (rect) =>
              rect.left < title.right &&
              rect.right > title.left &&
              rect.top < title.bottom &&
              rect.bottom > title.top,
          )
          .map((rect) => `shape at ${Math.round(rect.top)}–${Math.round(rect.bottom)} px`);
        layer.remove();
        return { found, title: `${Math.round(title.top)}–${Math.round(title.bottom)} px` };
      });
      expect(overlaps.found, `headline at ${overlaps.title}`).toEqual([]);
    });
  }
}
