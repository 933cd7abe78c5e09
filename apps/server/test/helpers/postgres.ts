import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateWithJobQueue } from './installed-job-queue.js';

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function admin<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const uniqueName = (prefix: string) => `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;

export async function createPostgresTemplate(url: string): Promise<string> {
  const template = uniqueName('tunes_template');
  await admin(url, (client) => client.query(`create database ${template}`));
  // Two connections: the job queue holds one for its start lock while pg-boss installs on the other.
  migrateWithJobQueue({ kind: 'postgres', url: withDatabase(url, template), poolSize: 2 });
  return template;
}

export async function dropPostgresTemplate(url: string, template: string): Promise<void> {
  await admin(url, (client) => client.query(`drop database if exists ${template} with (force)`));
}

/** A fresh database copied from the migrated template; returns its URL and a drop function. */
export async function createDatabaseFromTemplate(url: string, template: string) {
  const name = uniqueName('tunes_test');
  for (let attempt = 0; ; attempt++) {
    try {
      await admin(url, (client) => client.query(`create database ${name} template ${template}`));
      break;
    } catch (error) {
      // Two copies of one template at the same moment can collide; wait and retry.
      if (attempt >= 20 || !/being accessed by other users/.test(String(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
  return {
    url: withDatabase(url, name),
    drop: () => admin(url, (client) => client.query(`drop database if exists ${name} with (force)`)),
  };
}
