// The floor under the landing budget: a bare `node:http` server sending exactly the bytes the app
// sends for `GET /api/landing-page` (status, every header but the per-connection ones, a fresh
// request id, the brotli body), read once from the running app. The app's cost above this floor
// is its own (routing, hooks, logging); the floor's above hello-world is the answer's size.
// Written the cheapest way node:http allows, so the floor is not raised by how it is written: the
// headers as a flat array built once (an object spread per request cost ~20 µs on a slow host)
// and the body as a latin1 string, which Node sends in one piece with the headers (a Buffer goes
// as a second chunk, ~20 µs more; docs/performance.md "Round eight").
import { randomUUID } from 'node:crypto';
import { createServer, get } from 'node:http';

const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'x-request-id']);

const { statusCode, headers, body } = await new Promise((resolve, reject) => {
  get(process.env.TARGET, { headers: JSON.parse(process.env.HEADERS ?? '{}') }, (response) => {
    const chunks = [];
    response.on('data', (chunk) => chunks.push(chunk));
    response.on('end', () =>
      resolve({ statusCode: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }),
    );
  }).on('error', reject);
});
const fixed = Object.entries(headers)
  .filter(([name]) => !PER_CONNECTION.has(name))
  .flat();
const text = body.toString('latin1');

createServer((_request, response) => {
  response.writeHead(statusCode, [...fixed, 'x-request-id', randomUUID()]);
  response.end(text, 'latin1');
}).listen(Number(process.env.PORT), '127.0.0.1');
