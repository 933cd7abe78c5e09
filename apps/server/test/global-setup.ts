import type { TestProject } from 'vitest/node';
import { createPostgresTemplate, dropPostgresTemplate } from './helpers/postgres.js';

/**
 * With TEST_DATABASE=postgres, migrate one template database once; every test file then gets a
 * fresh copy of it (CREATE DATABASE … TEMPLATE), so files stay isolated and fast.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE !== 'postgres') return;
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
  }
}
