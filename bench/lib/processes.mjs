import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A TCP port nobody listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers `expectStatus`; resolves with the milliseconds it took. */
export async function waitFor(
  url,
  { child, startedAt = Date.now(), timeoutMs = 60_000, expectStatus = 200 } = {},
) {
  while (Date.now() - startedAt < timeoutMs) {
    if (child && child.exitCode !== null)
      throw new Error(`${url}: the process exited with ${child.exitCode}`);
    const status = await fetch(url)
      .then((response) => response.status)
      .catch(() => 0);
    if (status === expectStatus) return Date.now() - startedAt;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${url} did not answer ${expectStatus} within ${timeoutMs} ms`);
}

/** Starts a Node script as a child process, keeping its output for error messages. */
export function startNode(script, args, env, nodeFlags = []) {
  const child = spawn(process.execPath, [...nodeFlags, script, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  return { child, output: () => output };
}

/** Stops a child with SIGTERM (SIGKILL after 10 s) and waits for it. */
export async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
