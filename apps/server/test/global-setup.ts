import type { TestProject } from 'vitest/node';
import { createPGliteSnapshot } from './helpers/pglite-snapshot.js';
import { createPostgresTemplate, dropPostgresTemplate } from './helpers/postgres.js';

/**
 * Migrate once and install the job queue, then start every test file from a copy: on PostgreSQL
 * (TEST_DATABASE=postgres) a template database (CREATE DATABASE … TEMPLATE), on PGlite a tar of a
 * migrated data directory. Files stay isolated, and none pays for creating and migrating a
 * database of its own.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE !== 'postgres') {
    const snapshot = await createPGliteSnapshot();
    project.provide('pgliteSnapshot', snapshot.file);
    return snapshot.remove;
  }
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE=postgres needs DATABASE_URL');
  const template = await createPostgresTemplate(url);
  project.provide('postgresTemplate', template);
  return async () => {
    await dropPostgresTemplate(url, template);
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresTemplate: string;
    /** Path of the migrated PGlite data directory's tar. */
    pgliteSnapshot: string;
  }
}
