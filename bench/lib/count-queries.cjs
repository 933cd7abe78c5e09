// Preloaded into the server by bench/launch-roundtrips.mjs (`node --require`): counts the
// statements the server's `pg` clients send (each one a round trip to PostgreSQL) and answers the
// count on http://127.0.0.1:$BENCH_COUNT_PORT/, so a bench that makes one call at a time can read
// the round trips of each call.
const http = require('node:http');
const pg = require('pg');

let statements = 0;
// BENCH_COUNT_FILE: each statement's text is appended there too (which ones a call sends).
const file = process.env.BENCH_COUNT_FILE;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(...args) {
  statements++;
  if (file) {
    const text = typeof args[0] === 'string' ? args[0] : args[0]?.text;
    require('node:fs').appendFileSync(file, `${String(text).replace(/\s+/g, ' ').slice(0, 220)}\n`);
  }
  return query.apply(this, args);
};
http
  .createServer((_request, response) => {
    const { user, system } = process.cpuUsage();
    response.end(JSON.stringify({ statements, cpuUs: user + system }));
  })
  .listen(Number(process.env.BENCH_COUNT_PORT), '127.0.0.1')
  .unref();
