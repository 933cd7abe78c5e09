// PGlite's own thread (`db/pglite-thread.ts` starts it): opens the database, then runs the
// statements the server's thread sends, one at a time, in the order they came.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { INT8_OID, NUMERIC_OID, parseNumber } from './number-types.js';
import { PGliteSession } from './pglite-session.js';
import { errorFields, type FromThread, type ThreadSettings, type ToThread } from './pglite-thread.js';

const port = parentPort;
if (!port) throw new Error('db/pglite-worker runs as a worker thread (db/pglite-thread.ts)');
const { dataDir, loadDataDir } = workerData as ThreadSettings;
const reply = (message: FromThread) => port.postMessage(message);

const session = PGlite.create({
  ...(dataDir ? { dataDir } : {}),
  ...(loadDataDir ? { loadDataDir } : {}),
  parsers: { [INT8_OID]: parseNumber, [NUMERIC_OID]: parseNumber },
}).then((pglite) => new PGliteSession(pglite));
session.then(
  () => reply({ type: 'ready' }),
  (error: unknown) => reply({ type: 'failed', error: errorFields(error) }),
);

let queue: Promise<unknown> = session;
port.on('message', (message: ToThread) => {
  queue = queue
    .then(async () => {
      const open = await session;
      if (message.type === 'run') {
        reply({ type: 'answer', id: message.id, answer: await open.run(message.statement) });
        return;
      }
      await open.close();
      reply({ type: 'answer', id: message.id, answer: { rows: [] } });
    })
    .catch((error: unknown) => reply({ type: 'error', id: message.id, error: errorFields(error) }));
});
