import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { cpuMs, totalCpuMs } from './cpu.mjs';

const run = promisify(execFile);
const loadProcess = fileURLToPath(new URL('./load-process.mjs', import.meta.url));

async function autocannonProcess(settings) {
  const { stdout } = await run(process.execPath, [loadProcess, JSON.stringify(settings)], {
    maxBuffer: 1024 * 1024,
  });
  return JSON.parse(stdout);
}

/**
 * One measured call: autocannon in its own process, `connections` keep-alive clients, a 1 s
 * warm-up (JIT, pools, caches; not counted), then `seconds` measured. Besides requests/s and
 * latency percentiles (ms) it reads the CPU the serving processes (`pids`: the server, and
 * PostgreSQL's backends when `extraPids` gives them) spent over the measured run, from their own
 * counters, divided by the requests answered: µs of CPU per request. Non-2xx answers and socket
 * errors are counted, never hidden.
 */
export async function measure(
  url,
  { connections = 50, seconds = 5, headers = {}, pids = [], extraPids = async () => [] } = {},
) {
  await autocannonProcess({ url, connections, seconds: 1, headers });
  const others = await extraPids();
  // Read after the warm-up's answers are out; a server's CPU only moves while it serves, so the
  // load process's own start-up (~0.1 s) does not dilute the figure.
  const before = totalCpuMs(pids);
  const othersBefore = others.map(cpuMs);
  const result = await autocannonProcess({ url, connections, seconds, headers });
  const cpu = totalCpuMs(pids) - before;
  // A backend that closed during the run reads 0 afterwards: only whole readings count.
  const othersCpu = others.reduce((total, pid, index) => {
    const after = cpuMs(pid);
    return after > 0 ? total + Math.max(0, after - othersBefore[index]) : total;
  }, 0);
  // To 0.1 µs: the counters tick every 10 ms, ~0.05 µs over the ~200,000 answers of a cheap call's
  // 5 s; whole µs hid differences between two builds of a cheap call.
  const perRequest = (ms) => (result.requests > 0 ? Math.round((ms * 10_000) / result.requests) / 10 : null);
  return {
    requestsPerSecond: Math.round(result.requestsPerSecond),
    latencyMs: result.latencyMs,
    requests: result.requests,
    non2xx: result.non2xx,
    errors: result.errors,
    cpuMs: cpu,
    cpuMicrosPerRequest: perRequest(cpu),
    ...(others.length ? { databaseCpuMicrosPerRequest: perRequest(othersCpu) } : {}),
    connections,
    seconds,
  };
}
