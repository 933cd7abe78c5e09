import type { ColumnType, Generated } from 'kysely';

export interface StoredReel {
  url: string;
  description: string;
  /** Added with the console (migration 2026113000); absent in older rows: English is shown. */
  descriptionMn?: string;
}

declare module '../../db/schema.js' {
  interface Database {
    content_state: {
      id: number;
      /** Bumped by every import; API processes compare it to know their cache is stale. */
      revision: ColumnType<string, number | string, number | string>;
      updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
      /** When content was last imported or published (migration 2026113000). */
      published_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
    };
    content_landing: {
      id: number;
      banner_title_en: string;
      banner_description_en: string;
      banner_title_mn: string;
      banner_description_mn: string;
      music_video_url: string;
      music_video_image: string;
      /** JSON text on write, parsed array on read. */
      reels: ColumnType<StoredReel[], string, string>;
    };
    content_cards: {
      id: Generated<number>;
      type: string;
      title: string;
      /** Mongolian title; null: the English one is shown (migration 2026113000). */
      title_mn: ColumnType<string | null, string | null | undefined, string | null>;
      url: string;
      image: string;
      trending: boolean;
      position: number;
    };
    feedback: {
      id: Generated<number>;
      name: string;
      email: string;
      feedback: string;
      created_at: ColumnType<Date, Date | string, never>;
    };
    /** Images the console uploads for cards and the banner (uploads.ts; migration 2026113000). */
    content_images: {
      file: string;
      content_type: string;
      body: Buffer;
      created_at: ColumnType<Date, Date | string, Date | string>;
    };
  }
}
