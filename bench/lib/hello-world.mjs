// The baseline of performance.md: the cheapest possible Node.js HTTP answer, measured in the same run.
import { createServer } from 'node:http';

const body = JSON.stringify({ hello: 'world' });
createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
