import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';

export interface CommandContext {
  config: Config;
  /** Opens the configured database on first use (migrated; PGlite under the DATA_DIR lock). */
  db(): Promise<Kysely<Database>>;
  print(line: string): void;
}

/**
 * One operator command of `npm run admin -- <name> [args]`. Each lives in its own file of
 * `admin/commands/` and is found by its file, so modules never edit a shared list.
 */
export interface AdminCommand {
  name: string;
  summary: string;
  usage: string;
  run(args: string[], context: CommandContext): Promise<void>;
}

/** Thrown for wrong arguments: the CLI prints the message and the command's usage. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The command ran and found something wrong: the CLI prints the message, no stack, and exits 1. */
export class CommandFailure extends Error {
  override name = 'CommandFailure';
}
