import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { ZodError } from 'zod';
import { systemClock } from '../../lib/clock.js';
import { importContent } from '../../modules/content/content-store.js';
import { type AdminCommand, UsageError } from '../command.js';

export const command: AdminCommand = {
  name: 'content:import',
  summary:
    'Replace the landing data and all content cards with a JSON file { landing, cards } (links must be http(s)).',
  usage: 'content:import <file.json>',
  async run(args, { db: openDb, print }) {
    // Strict: an option this command does not have is named as one, not read as a file.
    const { positionals } = parseArgs({ args, options: {}, allowPositionals: true });
    const [file, ...rest] = positionals;
    if (!file || rest.length > 0) throw new UsageError('Give exactly one JSON file.');
    let input: unknown;
    try {
      input = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      throw new UsageError(`Cannot read ${file} as JSON: ${(error as Error).message}`);
    }
    try {
      const summary = await importContent({ db: await openDb(), clock: systemClock }, input);
      const { ARTIST, SONG, PLAYLIST } = summary.cards;
      print(
        `Imported landing data and ${ARTIST + SONG + PLAYLIST} cards (${ARTIST} ARTIST, ${SONG} SONG, ${PLAYLIST} PLAYLIST); content revision ${summary.revision}.`,
      );
    } catch (error) {
      if (!(error instanceof ZodError)) throw error;
      const problems = error.issues.map((issue) => `  ${issue.path.join('.') || '(file)'}: ${issue.message}`);
      throw new UsageError(`${file} is not valid content; nothing was changed:\n${problems.join('\n')}`);
    }
  },
};
