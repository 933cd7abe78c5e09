import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Migrations are the files of `db/migrations`, applied in name order. Each module adds its own
 * file there (`<yyyymmddnn>_<module>_<what>.ts`), so modules never edit a shared list.
 */
class FolderMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await readdir(MIGRATIONS_DIR)).filter(
      (file) => /\.(js|ts)$/.test(file) && !file.endsWith('.d.ts'),
    );
    const migrations: Record<string, Migration> = {};
    for (const file of files.sort()) {
      const module = (await import(pathToFileURL(path.join(MIGRATIONS_DIR, file)).href)) as Migration;
      migrations[file.replace(/\.(js|ts)$/, '')] = module;
    }
    return migrations;
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the migrator works on any schema.
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new FolderMigrationProvider() });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
  return (results ?? []).map((result) => result.migrationName);
}
