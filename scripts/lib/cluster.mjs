// N API processes of the built server behind HAProxy, on one PostgreSQL and one Redis: what
// docs/operations.md "Scaling out" describes, on this machine. Used by `npm run cluster` and by
// the scale-out test (apps/server/test-cluster/scale-out.test.ts).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startNode, stop, waitFor } from '../../bench/lib/processes.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** The address HAProxy connects to the processes from: the one proxy they trust. */
const BALANCER_ADDRESS = '127.0.0.1';

export function findHaproxy() {
  for (const candidate of ['/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy']) {
    if (spawnSync(candidate, ['-v']).status === 0) return candidate;
  }
  return null;
}

/** The HAProxy configuration: round robin, health checks, retries only where nothing was sent. */
function haproxyConfig(port, backends) {
  const servers = backends
    .map(
      (backend, index) =>
        `  server api${index + 1} 127.0.0.1:${backend} check inter 500ms fall 2 rise 2 observe layer7`,
    )
    .join('\n');
  return `global
  maxconn 4096
defaults
  mode http
  timeout connect 2s
  timeout client 30s
  timeout server 30s
  option redispatch
  retries 3
  # A request is tried on another process only when no connection was made: nothing is ever
  # done twice by the balancer. What a dying process had read is the client's to retry.
  retry-on conn-failure
frontend site
  bind 127.0.0.1:${port}
  # The processes believe these headers from the balancer only (TRUST_PROXY): what a client sent
  # is dropped, and X-Forwarded-For names the address it connected from, so limits per client
  # count each client once, however many processes serve it.
  http-request del-header X-Forwarded-For
  http-request del-header X-Forwarded-Host
  http-request set-header X-Forwarded-Proto https if { ssl_fc }
  http-request set-header X-Forwarded-Proto http if !{ ssl_fc }
  option forwardfor
  default_backend api
backend api
  balance roundrobin
  source ${BALANCER_ADDRESS}
  option httpchk GET /api/health
  http-check expect status 200
${servers}
`;
}

/**
 * Starts `processes` servers (apps/server/dist/server.js, development mode so the sandbox gateway
 * and /dev run) on `databaseUrl` and `redisUrl`, and HAProxy in front on `port`.
 */
export async function startCluster({ databaseUrl, redisUrl, processes = 3, port, env = {} }) {
  const haproxy = findHaproxy();
  if (!haproxy) throw new Error('HAProxy is not installed: sudo apt-get install -y haproxy');
  const frontPort = port ?? (await freePort());
  const publicUrl = `http://127.0.0.1:${frontPort}`;
  const ports = [];
  for (let i = 0; i < processes; i++) ports.push(await freePort());

  const serverEnv = (serverPort) => ({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(serverPort),
    PUBLIC_URL: publicUrl,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    // HAProxy connects from here; a client's own X-Forwarded-For is not believed.
    TRUST_PROXY: BALANCER_ADDRESS,
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    WEB_DIST_DIR: path.join(root, 'apps/web/dist'),
    ...env,
  });
  const servers = ports.map((serverPort) => ({ port: serverPort, handle: null }));
  const startServer = async (server) => {
    server.handle = startNode(path.join(root, 'apps/server/dist/server.js'), [], serverEnv(server.port));
    await waitFor(`http://127.0.0.1:${server.port}/api/health`, {
      child: server.handle.child,
      timeoutMs: 120_000,
    });
  };
  // The first one migrates the database; the others start on a migrated one.
  await startServer(servers[0]);
  await Promise.all(servers.slice(1).map(startServer));

  const work = mkdtempSync(path.join(tmpdir(), 'tunes-cluster-'));
  const configFile = path.join(work, 'haproxy.cfg');
  writeFileSync(configFile, haproxyConfig(frontPort, ports));
  const balancer = spawn(haproxy, ['-f', configFile, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let balancerOutput = '';
  balancer.stdout.on('data', (chunk) => {
    balancerOutput += chunk;
  });
  balancer.stderr.on('data', (chunk) => {
    balancerOutput += chunk;
  });
  await waitFor(`${publicUrl}/api/health`, { child: balancer, timeoutMs: 30_000 });

  return {
    url: publicUrl,
    ports,
    /** Kills process `index` at once (SIGKILL: no goodbye), as a crash would. */
    kill: async (index) => {
      const { child } = servers[index].handle;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    restart: (index) => startServer(servers[index]),
    output: (index) => servers[index].handle?.output() ?? '',
    balancerOutput: () => balancerOutput,
    stop: async () => {
      balancer.kill('SIGTERM');
      await Promise.all(servers.map((server) => (server.handle ? stop(server.handle.child) : undefined)));
    },
  };
}
