#!/usr/bin/env node
// `npm start`: install, build, then serve on the embedded database. The server runs as this
// process's child with every stop signal passed on, so SIGTERM or Ctrl-C to `npm start` stops
// the server too (a shell `a && b && c` chain would leave it running as an orphan).
import { spawn, spawnSync } from 'node:child_process';
import { SERVER_NODE_FLAGS } from './lib/server-node-flags.mjs';

function step(command, args) {
  const outcome = spawnSync(command, args, { stdio: 'inherit' });
  if (outcome.status !== 0) process.exit(outcome.status ?? 1);
}

step('npm', ['install', '--no-audit', '--no-fund']);
step('npm', ['run', 'build']);

const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'apps/server/dist/server.js'], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
