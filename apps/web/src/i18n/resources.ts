import type admin from '../admin/locales/en';
import type accounts from './locales/en/accounts.json';
import type billing from './locales/en/billing.json';
import type common from './locales/en/common.json';
import type content from './locales/en/content.json';
import type contentHelp from './locales/en/content-help.json';
import type ebarimt from './locales/en/ebarimt.json';
import type family from './locales/en/family.json';
import type premium from './locales/en/premium.json';
import type vouchers from './locales/en/vouchers.json';

/**
 * The English catalogues are the source of truth for the keys: every `t(key)` of the site is
 * type-checked against them (the Mongolian ones must have the same keys: `lib/i18n.test.ts`).
 */
export interface Resources {
  common: typeof common;
  accounts: typeof accounts;
  premium: typeof premium;
  billing: typeof billing;
  family: typeof family;
  vouchers: typeof vouchers;
  content: typeof content;
  'content-help': typeof contentHelp;
  ebarimt: typeof ebarimt;
  /** The operator console's own catalogue (`admin/locales`), never loaded by a listener page. */
  admin: typeof admin;
}

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: Resources;
  }
}
