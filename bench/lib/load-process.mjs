// One autocannon run in a process of its own (started by load.mjs), so the load generator never
// shares an event loop with the bench's bookkeeping. Input: one JSON argument; output: autocannon's
// result as JSON on stdout.
import autocannon from 'autocannon';

const { url, connections, seconds, headers } = JSON.parse(process.argv[2]);
const result = await autocannon({ url, connections, duration: seconds, headers });
process.stdout.write(
  JSON.stringify({
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    durationMs: result.duration * 1000,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  }),
);
