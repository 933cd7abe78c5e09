import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

/**
 * A keep-alive HTTP client for the load generator: `node:http` with one agent, so a request
 * costs the generator a few tens of µs (fetch costs several times that) and the server, not the
 * client, sets the pace. Bodies are decoded (br, gzip) as a browser would, and parsed when JSON.
 */
export function createClient(baseUrl, { maxSockets = 512 } = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets, scheduling: 'lifo' });
  const { hostname, port } = new URL(baseUrl);

  /**
   * `body`: a string, `{ json }` or `{ form }`. Resolves with `{ status, headers, text, json }`
   * (`text` and `json` decoded when read); rejects only when no answer came (a socket error).
   */
  function request(method, path, { headers = {}, body } = {}) {
    let payload;
    const sent = { ...headers };
    if (body?.json !== undefined) {
      payload = JSON.stringify(body.json);
      sent['content-type'] = 'application/json';
    } else if (body?.form !== undefined) {
      payload = new URLSearchParams(body.form).toString();
      sent['content-type'] = 'application/x-www-form-urlencoded';
    }
    if (payload !== undefined) sent['content-length'] = Buffer.byteLength(payload);
    return new Promise((resolve, reject) => {
      const outgoing = http.request({ agent, hostname, port, method, path, headers: sent }, (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => resolve(answerOf(response, Buffer.concat(chunks))));
      });
      outgoing.on('error', reject);
      outgoing.end(payload);
    });
  }

  return { request, close: () => agent.destroy() };
}

function answerOf(response, raw) {
  // Decoded and parsed when first read: most pages' bodies are never looked at (their status is
  // what a journey checks), and decoding them would spend the generator's share of the cores.
  let text;
  let json;
  return {
    status: response.statusCode,
    headers: response.headers,
    get text() {
      if (text === undefined) {
        const coding = response.headers['content-encoding'];
        const bytes = coding === 'br' ? brotliDecompressSync(raw) : coding === 'gzip' ? gunzipSync(raw) : raw;
        text = bytes.toString('utf8');
      }
      return text;
    },
    get json() {
      const type = response.headers['content-type'] ?? '';
      if (json === undefined && type.includes('application/json') && this.text !== '')
        json = JSON.parse(this.text);
      return json;
    },
  };
}
