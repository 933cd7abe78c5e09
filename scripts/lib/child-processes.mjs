// Finding and stopping the processes a script started (Linux: read from /proc), so a stop
// signal to `npm run cluster` ends every process it started, also while it is still starting them.
import { readdirSync, readFileSync } from 'node:fs';

/** State and parent of `pid` from /proc, or undefined once it is gone. */
function statOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (name) state ppid …": the name may hold spaces and parentheses.
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

/** Whether `pid` still runs (a zombie has exited and only waits for its parent to read that). */
export function isRunning(pid) {
  const stat = statOf(pid);
  return stat !== undefined && stat.state !== 'Z';
}

/** The running processes below `pid`: its children, theirs, and so on. */
export function descendantsOf(pid) {
  const parents = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(entry);
    if (stat && stat.state !== 'Z') parents.set(Number(entry), stat.ppid);
  }
  const found = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift();
    for (const [child, ppid] of parents) {
      if (ppid !== parent) continue;
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/**
 * Sends `signal` to this process's children, also to one started meanwhile, and waits until none
 * runs; after `graceMs` it kills what remains.
 */
export async function stopChildren(signal = 'SIGTERM', graceMs = 10_000) {
  const deadline = Date.now() + graceMs;
  const signalled = new Set();
  for (;;) {
    const children = descendantsOf(process.pid).filter((pid) => statOf(pid)?.ppid === process.pid);
    if (children.length === 0) return;
    const late = Date.now() > deadline;
    for (const pid of children) {
      if (signalled.has(pid) && !late) continue;
      signalled.add(pid);
      try {
        process.kill(pid, late ? 'SIGKILL' : signal);
      } catch {
        // Already gone.
      }
    }
    if (late) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
