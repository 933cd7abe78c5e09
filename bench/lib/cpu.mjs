import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux (`getconf CLK_TCK`)

/**
 * CPU time (user + system, all threads, in ms) a process has spent so far, from its own kernel
 * counters (/proc/<pid>/stat): unlike throughput, this does not move when other processes take
 * the cores. 0 for a process that is gone (a PostgreSQL backend that closed).
 */
export function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of proc(5) (utime, stime); the slice starts at field 3.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The summed CPU time of several processes, in ms. */
export function totalCpuMs(pids) {
  return pids.reduce((total, pid) => total + cpuMs(pid), 0);
}
