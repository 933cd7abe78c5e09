// How the scripts install the dependencies (`npm start`, `npm test`): `npm ci`, only when
// node_modules is missing or older than the lock file. `npm ci` installs exactly
// package-lock.json and never writes it; `npm install` may rewrite it (the npm of Node.js 20
// drops its `libc` fields), leaving a newcomer's clone changed by its first `npm start`.
import { existsSync, statSync } from 'node:fs';

export const INSTALL_COMMAND = ['npm', ['ci', '--no-audit', '--no-fund']];

/** node_modules is missing, or older than the lock file npm last installed from. */
export function dependenciesStale() {
  const installed = 'node_modules/.package-lock.json';
  return !existsSync(installed) || statSync(installed).mtimeMs < statSync('package-lock.json').mtimeMs;
}
