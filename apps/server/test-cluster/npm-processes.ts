import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: plain-JavaScript helpers shared with `npm run cluster`.
import { descendantsOf, isRunning } from '../../../scripts/lib/child-processes.mjs';

/**
 * An npm script run as an operator runs it, and stopped as a process manager stops it: a signal
 * to the npm process alone (signals.test.ts, npm-start.test.ts).
 */
export interface NpmRun {
  npm: ChildProcess;
  output(): string;
}

export const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));
const STOP_WITHIN_MS = 15_000;
/** Every process a run had when it was signalled, to end what a failed test left running. */
const signalled: number[] = [];

/** `npm <args>` in `cwd` (the repository) with `env` (the whole environment). */
export function runNpm(args: string[], env: NodeJS.ProcessEnv, cwd = repositoryRoot): NpmRun {
  const child = spawn('npm', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  return { npm: child, output: () => output };
}

export const processesOf = (run: NpmRun): number[] => descendantsOf(run.npm.pid);

/** A process's command line, as `ps` shows it. */
export const commandOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '(gone)';
  }
};

/**
 * Sends `signal` to the npm process only; answers the processes of the run (npm and every process
 * below it when the signal was sent) still running 15 s later, by command line.
 */
export async function stopNpm(run: NpmRun, signal: NodeJS.Signals): Promise<string[]> {
  const processes = [run.npm.pid ?? 0, ...processesOf(run)];
  signalled.push(...processes);
  run.npm.kill(signal);
  const deadline = Date.now() + STOP_WITHIN_MS;
  while (processes.some(isRunning) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return processes.filter(isRunning).map((pid) => `${pid} ${commandOf(pid)}`);
}

/** Ends, with SIGKILL, what a failed run left running (this test's own processes only). */
export function endLeftovers() {
  for (const pid of signalled.splice(0).filter(isRunning)) process.kill(pid, 'SIGKILL');
}

export async function waitForOutput(run: NpmRun, text: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!run.output().includes(text)) {
    if (run.npm.exitCode !== null) throw new Error(`npm exited before "${text}":\n${run.output()}`);
    if (Date.now() > deadline) throw new Error(`no "${text}" within ${timeoutMs} ms:\n${run.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whether nothing answers at `url` any more. */
export const refused = (url: string) =>
  fetch(url).then(
    () => false,
    () => true,
  );
