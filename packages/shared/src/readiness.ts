/**
 * What a site still lacks before it can sell (`GET /api/admin/readiness`, docs/console-api.md):
 * the console's first-run page. Types only, so the console's chunk carries no zod.
 */

/** Each check, in the order the console lists them. */
export const READINESS_CHECKS = [
  'plans',
  'landing-en',
  'landing-mn',
  'card-payments',
  'qpay',
  'ebarimt',
  'sms',
  'email',
  'operators',
  'public-url',
  'demo-data',
] as const;
export type ReadinessCheckId = (typeof READINESS_CHECKS)[number];

/**
 * `missing`: the site cannot sell (or nobody can sign in) until it is fixed; `notice`: it sells,
 * but something is off (a sandbox, an opt-out, one operator only); `ok`: nothing to do.
 */
export type ReadinessStatus = 'ok' | 'missing' | 'notice';

/**
 * Why a check is not ok, for the console's text (`first-run.reasons.<reason>`): a provider runs
 * on a test system or the built-in sandbox, is switched off in writing (`ALLOW_NO_*`), or is not
 * configured; the rest name what they count.
 */
export type ReadinessReason =
  | 'none'
  | 'sandbox'
  | 'test-provider'
  | 'opted-out'
  | 'not-configured'
  | 'empty-card-types'
  | 'untranslated'
  | 'retired-only'
  | 'single-admin'
  | 'no-admin'
  | 'localhost'
  | 'plain-http'
  | 'loaded';

export interface ReadinessCheck {
  id: ReadinessCheckId;
  status: ReadinessStatus;
  /** Set when status is not `ok`. */
  reason?: ReadinessReason;
  /** What the check counted: plans on sale, cards without Mongolian text, admins, … */
  count?: number;
  /** Names the reason refers to: card types without cards, plan codes, variables. */
  names?: string[];
  /** The command that fixes it, as an operator types it. */
  command?: string;
  /** The environment variables that fix it (set them and restart). */
  variables?: string[];
}

export interface Readiness {
  /** No check is `missing`: listeners can sign in and buy a plan. */
  ready: boolean;
  checks: ReadinessCheck[];
}
