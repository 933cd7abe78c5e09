import { type Kysely, sql } from 'kysely';

/** Landing data (one row), content cards, the content revision caches compare, and feedback. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('content_state')
    .addColumn('id', 'smallint', (col) => col.primaryKey().check(sql`id = 1`))
    .addColumn('revision', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`insert into content_state (id, revision) values (1, 0)`.execute(db);

  await db.schema
    .createTable('content_landing')
    .addColumn('id', 'smallint', (col) => col.primaryKey().check(sql`id = 1`))
    .addColumn('banner_title_en', 'text', (col) => col.notNull())
    .addColumn('banner_description_en', 'text', (col) => col.notNull())
    .addColumn('banner_title_mn', 'text', (col) => col.notNull())
    .addColumn('banner_description_mn', 'text', (col) => col.notNull())
    .addColumn('music_video_url', 'text', (col) => col.notNull())
    .addColumn('music_video_image', 'text', (col) => col.notNull())
    .addColumn('reels', 'jsonb', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('content_cards')
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('type', 'text', (col) => col.notNull().check(sql`type in ('ARTIST', 'SONG', 'PLAYLIST')`))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('image', 'text', (col) => col.notNull())
    .addColumn('trending', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('position', 'integer', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('content_cards_position_idx').on('content_cards').column('position').execute();

  await db.schema
    .createTable('feedback')
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('feedback', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('feedback_created_at_idx').on('feedback').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['feedback', 'content_cards', 'content_landing', 'content_state']) {
    await db.schema.dropTable(table).execute();
  }
}
