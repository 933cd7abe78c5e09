import type { Deps } from '../../deps.js';
import type { ErrorLog } from '../../lib/logging.js';
import { notifyOnce } from '../premium/notices.js';
import { trialMessages, trialPlanOf } from './messages.js';
import './tables.js';

/**
 * The message when a trial starts (decision 0045), once per trial, by e-mail or SMS as the
 * account's other Premium messages and in its language: free until the end, then the plan's
 * price by the card on file or by a QPay link, and cancelling on /profile to pay nothing. Sent
 * after the start is committed; a start answered again (a reloaded return) sends nothing more.
 */
export async function tellTrialStarted(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  trialId: string,
  log?: ErrorLog,
): Promise<boolean> {
  const trial = await deps.db
    .selectFrom('trials as t')
    .innerJoin('packages as p', 'p.id', 't.package_id')
    .leftJoin('saved_cards as c', 'c.user_id', 't.user_id')
    .select([
      't.user_id',
      't.method',
      't.ends_at',
      'p.name_en',
      'p.name_mn',
      'p.cost',
      'p.currency',
      'p.duration_months',
      'c.brand',
      'c.last4',
    ])
    .where('t.id', '=', trialId)
    .where('t.status', '=', 'started')
    .executeTakeFirst();
  if (!trial?.ends_at) return false;
  const until = trial.ends_at;
  const profile = `${deps.config.PUBLIC_URL}/profile`;
  const card = trial.method === 'card' && trial.last4 ? `${trial.brand} •••• ${trial.last4}` : null;
  return notifyOnce(
    deps,
    {
      key: `trial-started:${trialId}`,
      userId: trial.user_id,
      link: profile,
      text: (lang) => {
        const what = trialPlanOf(trial, lang);
        return card
          ? trialMessages.startedCard(lang, what, until, card, profile)
          : trialMessages.startedQpay(lang, what, until, profile);
      },
    },
    log,
  );
}
