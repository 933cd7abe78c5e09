import { Worker } from 'node:worker_threads';
import type { Answer, Statement } from './pglite-session.js';

/** What PGlite's thread is started with (`DatabaseOptions` of kind 'pglite'). */
export interface ThreadSettings {
  dataDir?: string;
  loadDataDir?: Blob;
}

/** An error as it crosses the thread boundary: its message and PostgreSQL's fields (code, …). */
export interface ErrorFields {
  message: string;
  fields: Record<string, string | number | boolean>;
}

export type ToThread = { type: 'run'; id: number; statement: Statement } | { type: 'close'; id: number };

export type FromThread =
  | { type: 'ready' }
  | { type: 'failed'; error: ErrorFields }
  | { type: 'answer'; id: number; answer: Answer }
  | { type: 'error'; id: number; error: ErrorFields };

/** Copies an error's message and plain fields (PostgreSQL's `code`, `constraint`, …) for postMessage. */
export function errorFields(error: unknown): ErrorFields {
  const fields: ErrorFields['fields'] = {};
  if (error instanceof Error) {
    for (const [key, value] of Object.entries(error)) {
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
        fields[key] = value;
    }
    return { message: error.message, fields };
  }
  return { message: String(error), fields };
}

function errorFrom({ message, fields }: ErrorFields): Error {
  return Object.assign(new Error(message), fields);
}

/**
 * The thread runs `db/pglite-worker.js` beside this module. Run from the sources (tests, `npm run
 * dev`), where no built file exists, it registers tsx inside the thread and imports the
 * TypeScript file.
 */
function startWorker(settings: ThreadSettings): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./pglite-worker.js', import.meta.url), { workerData: settings });
  }
  const entry = JSON.stringify(new URL('./pglite-worker.ts', import.meta.url).href);
  const script = `import('tsx/esm/api').then(({ register }) => { register(); return import(${entry}); });`;
  return new Worker(script, { eval: true, workerData: settings });
}

/**
 * What the PGlite dialect runs its statements on: PGlite's own thread, or (in the tests) one lent
 * from a pool, whose `close` gives it back.
 */
export interface StatementRunner {
  /** Settles once PGlite has started; a failed start rejects. */
  readonly ready: Promise<void>;
  run(statement: Statement): Promise<Answer>;
  close(): Promise<void>;
}

interface Waiting {
  resolve: (answer: Answer) => void;
  reject: (error: Error) => void;
}

/**
 * PGlite in a worker thread of its own (decision 0028). PGlite is PostgreSQL compiled to
 * WebAssembly: in the server's thread every statement ran on the event loop, so while it worked no
 * request was read or answered, and on two cores the second one idled. Here the statements run on
 * the other core while the event loop parses, checks and answers requests; the server's thread
 * keeps the connection's queue (`ConnectionMutex` in `db/pglite-dialect.ts`), so one statement at a
 * time crosses over, in the order callers asked.
 *
 * Errors come back with PostgreSQL's fields (a unique violation keeps its `code`); a thread that
 * stops fails every waiting statement and every later one with "PGlite is closed", which the
 * API answers as 503. The thread keeps the process alive only while a statement is waiting.
 */
export class PGliteThread implements StatementRunner {
  /** Settles once PGlite has started (seconds when a first start creates the cluster). */
  readonly ready: Promise<void>;
  readonly #worker: Worker;
  readonly #waiting = new Map<number, Waiting>();
  #lastId = 0;
  #stopped: Error | undefined;
  #closing: Promise<void> | undefined;

  constructor(settings: ThreadSettings) {
    this.#worker = startWorker(settings);
    this.#worker.unref();
    this.ready = new Promise<void>((resolve, reject) => {
      this.#worker.on('message', (message: FromThread) => {
        if (message.type === 'ready') resolve();
        else if (message.type === 'failed') reject(errorFrom(message.error));
        else this.#settle(message);
      });
      this.#worker.on('error', (error) => {
        reject(error);
        this.#stop(`it failed: ${error.message}`);
      });
      this.#worker.on('exit', (code) => {
        reject(new Error(`PGlite is closed: its thread exited (${code}) before it started`));
        this.#stop(`its thread exited (${code})`);
      });
    });
    // A failed start surfaces at the first query (`PGliteDriver.init`), not as an unhandled rejection.
    this.ready.catch(() => {});
  }

  run(statement: Statement): Promise<Answer> {
    return this.#send({ type: 'run', id: ++this.#lastId, statement });
  }

  /** Checkpoints and closes PGlite (the data directory is whole afterwards), then ends the thread. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      if (!this.#stopped) await this.#send({ type: 'close', id: ++this.#lastId }).catch(() => {});
      this.#stop('it was closed');
      await this.#worker.terminate();
    })();
    return this.#closing;
  }

  #send(message: ToThread): Promise<Answer> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    return new Promise<Answer>((resolve, reject) => {
      // Throws (and so rejects) for a value that cannot cross, before anything waits on it; the
      // answer comes in a later turn of the event loop, after the statement is registered.
      this.#worker.postMessage(message);
      if (this.#waiting.size === 0) this.#worker.ref();
      this.#waiting.set(message.id, { resolve, reject });
    });
  }

  #settle(message: Extract<FromThread, { id: number }>): void {
    const waiting = this.#waiting.get(message.id);
    if (!waiting) return;
    this.#waiting.delete(message.id);
    if (this.#waiting.size === 0) this.#worker.unref();
    if (message.type === 'answer') waiting.resolve(message.answer);
    else waiting.reject(errorFrom(message.error));
  }

  #stop(reason: string): void {
    if (this.#stopped) return;
    this.#stopped = new Error(`PGlite is closed: ${reason}`);
    for (const waiting of this.#waiting.values()) waiting.reject(this.#stopped);
    this.#waiting.clear();
    this.#worker.unref();
  }
}
