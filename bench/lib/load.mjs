import autocannon from 'autocannon';

/**
 * One autocannon run: `connections` keep-alive clients for `seconds`. Returns requests/s and
 * latency percentiles (ms); non-2xx answers and socket errors are counted, never hidden.
 */
export async function measure(url, { connections = 50, seconds = 5, headers = {} } = {}) {
  // A short warm-up first (JIT, connection pools, caches), not counted.
  await autocannon({ url, connections, duration: 1, headers });
  const result = await autocannon({ url, connections, duration: seconds, headers });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    connections,
    seconds,
  };
}
