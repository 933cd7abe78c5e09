import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The site's routes as the router declares them (`<Route path="…"`), plus one unknown path. */
export function siteRoutes(root) {
  const router = readFileSync(path.join(root, 'apps/web/src/app/router.tsx'), 'utf8');
  const paths = [...router.matchAll(/<Route\s+path="([^"]+)"/g)].map((match) => match[1]);
  return [...new Set(paths), '/no-such-page'];
}
