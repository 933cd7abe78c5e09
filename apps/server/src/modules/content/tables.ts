import type { ColumnType, Generated } from 'kysely';

export interface StoredReel {
  url: string;
  description: string;
}

declare module '../../db/schema.js' {
  interface Database {
    content_state: {
      id: number;
      /** Bumped by every import; API processes compare it to know their cache is stale. */
      revision: ColumnType<string, number | string, number | string>;
      updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
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
  }
}
