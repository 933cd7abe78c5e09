import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { buildOpenApiDocument } from '../../openapi-document.js';
import type { AdminCommand } from '../command.js';

export const command: AdminCommand = {
  name: 'openapi:export',
  summary: 'Write the OpenAPI document of every /api route (docs/openapi.json is made this way).',
  usage: 'openapi:export [--out <file>]',
  async run(args, { print }) {
    const { values } = parseArgs({ args, options: { out: { type: 'string' } } });
    const text = `${JSON.stringify(await buildOpenApiDocument(), null, 2)}\n`;
    if (!values.out) {
      process.stdout.write(text);
      return;
    }
    await writeFile(values.out, text);
    print(`Wrote ${values.out}`);
  },
};
