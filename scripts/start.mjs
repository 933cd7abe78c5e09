#!/usr/bin/env node
// `npm start`: install the dependencies when they are missing or older than the lock file
// (`npm ci`, which never rewrites package-lock.json), build, then serve on the embedded database.
// Each step runs as this process's child in a process group of its own, and SIGINT, SIGTERM or
// SIGHUP to `npm start` is passed on to that whole group: a build is npm → sh → npm → tsc or
// vite, and a signal to its first process alone would leave the rest running. Nothing outlives
// a stop (a shell `a && b && c` chain would leave the server running as an orphan).
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { dependenciesStale, INSTALL_COMMAND } from './lib/dependencies.mjs';
import { SERVER_NODE_FLAGS } from './lib/server-node-flags.mjs';

let running;
let stoppedBy;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    stoppedBy = signal;
    if (!running) process.exit(128 + constants.signals[signal]);
    try {
      process.kill(-running.pid, signal);
    } catch {
      // The step has just ended.
    }
  });
}

/** Runs one step in a process group of its own; resolves with its exit code. */
function run(label, command, args) {
  process.stdout.write(`\n▶ npm start: ${label}\n`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', detached: true });
    running = child;
    child.once('error', (error) => {
      process.stderr.write(`${command}: ${error.message}\n`);
      resolve(1);
    });
    child.once('exit', (code, signal) => {
      running = undefined;
      resolve(code ?? 128 + (constants.signals[signal] ?? 0));
    });
  });
}

async function step(label, command, args) {
  const code = await run(label, command, args);
  if (code !== 0 || stoppedBy) process.exit(stoppedBy ? 128 + constants.signals[stoppedBy] : code);
}

if (dependenciesStale()) await step('installing the dependencies (npm ci)', ...INSTALL_COMMAND);
await step('building', 'npm', ['run', 'build']);
process.exit(await run('serving', process.execPath, [...SERVER_NODE_FLAGS, 'apps/server/dist/server.js']));
