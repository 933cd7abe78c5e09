import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Config, ConfigError, loadConfig } from '../config.js';
import { DataDirLockedError } from '../db/lock.js';
import { type OpenedDatabase, openConfiguredDatabase } from '../runtime.js';
import { type AdminCommand, type CommandContext, CommandFailure, UsageError } from './command.js';

const COMMANDS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'commands');

async function loadCommands(): Promise<Map<string, AdminCommand>> {
  const files = (await readdir(COMMANDS_DIR)).filter(
    (file) => /\.(js|ts)$/.test(file) && !file.endsWith('.d.ts'),
  );
  const commands = new Map<string, AdminCommand>();
  for (const file of files.sort()) {
    const module = (await import(pathToFileURL(path.join(COMMANDS_DIR, file)).href)) as {
      command?: AdminCommand;
    };
    if (module.command) commands.set(module.command.name, module.command);
  }
  return commands;
}

function help(commands: Map<string, AdminCommand>): string {
  const lines = [...commands.values()].map((command) => `  ${command.usage}\n      ${command.summary}`);
  return (
    `Usage: npm run admin -- <command> [options]\n\nCommands:\n${lines.join('\n')}\n\n` +
    'Add --help after a command for its options. Exit codes: 0 done, 1 failed, 2 wrong arguments.\n'
  );
}

const HELP_FLAGS = new Set(['--help', '-h', 'help']);

/** node:util parseArgs errors name the bad option in their message; they are wrong arguments. */
const isParseArgsError = (error: unknown) =>
  typeof (error as { code?: unknown }).code === 'string' &&
  (error as { code: string }).code.startsWith('ERR_PARSE_ARGS_');

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
}

/**
 * `npm run admin -- <command> [options]`: answers the exit code (0 done, 1 failed, 2 wrong
 * arguments). The launcher (`cli.ts`) passes the process's streams and environment; tests their own.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const commands = await loadCommands();
  const [name, ...args] = argv;
  if (!name || HELP_FLAGS.has(name)) {
    io.stdout(help(commands));
    return 0;
  }
  const command = commands.get(name);
  if (!command) {
    io.stderr(`Unknown command: ${name}. Run "npm run admin -- --help" for the list.\n`);
    return 2;
  }
  if (args.some((arg) => arg === '--help' || arg === '-h')) {
    io.stdout(`${command.summary}\n\nUsage: npm run admin -- ${command.usage}\n`);
    return 0;
  }

  let config: Config;
  try {
    config = loadConfig(io.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr(`${error.message}\n`);
    return 1;
  }
  let database: OpenedDatabase | undefined;
  const context: CommandContext = {
    config,
    db: async () => {
      // Prepared as the server prepares it (migrated, and seeded where SEED_DEMO_DATA is on), so
      // a command run before the first `npm start` sees the plans the site will sell.
      database ??= await openConfiguredDatabase(config, { seed: config.SEED_DEMO_DATA });
      await database.ready;
      return database.db;
    },
    print: (line) => io.stdout(`${line}\n`),
  };
  try {
    await command.run(args, context);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || isParseArgsError(error)) {
      const message = (error as Error).message.split('\n')[0] ?? '';
      io.stderr(`${name}: ${message}\nUsage: npm run admin -- ${command.usage}\n`);
      return 2;
    }
    const known =
      error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof CommandFailure;
    io.stderr(`${known ? (error as Error).message : String((error as Error)?.stack ?? error)}\n`);
    return 1;
  } finally {
    await database?.shutdown();
  }
}
