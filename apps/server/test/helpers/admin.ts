import { runCli } from '../../src/admin/run-cli.js';

/** `npm run admin -- …` as an operator runs it on `dataDir`: its output and its exit code. */
export async function runAdmin(
  dataDir: string,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
  });
  return { code, stdout, stderr };
}
