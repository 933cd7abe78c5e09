import { existsSync } from 'node:fs';
import { runCli } from './run-cli.js';

// The operator's command line: `.env` if present, then the process's own streams and environment.
if (existsSync('.env')) process.loadEnvFile('.env');
runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
    process.exit(1);
  },
);
