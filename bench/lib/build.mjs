import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * `npm run build` in a checkout: the shared package, the server (`apps/server/dist`) and the site
 * as production serves it (`apps/web/dist` with the console's page and the prerenderer's
 * `dist-ssr` beside it). Answers the site's directory, for WEB_DIST_DIR.
 */
export function buildProduction(root) {
  const outcome = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
  if (outcome.status !== 0)
    throw new Error(`npm run build in ${root} failed:\n${outcome.stdout}${outcome.stderr}`);
  return path.join(root, 'apps/web/dist');
}
