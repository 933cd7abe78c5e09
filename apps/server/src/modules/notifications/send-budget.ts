import type { Deps } from '../../deps.js';
import { sendsFromClient, smsBudget } from '../../lib/limits.js';
import { enforce } from '../../lib/throttle.js';
import type { Channel } from './schema.js';

/**
 * Takes one message from the budgets that stop a client from using the site to text or mail
 * strangers (SMS pumping, mail bombing): sends per client address per hour, whoever receives
 * them, and for SMS the whole site's hourly budget. Throws 429 naming the wait when one is spent.
 */
export async function takeSendBudget(
  deps: Pick<Deps, 'throttle' | 'config'>,
  channel: Channel,
  clientAddress: string,
): Promise<void> {
  await enforce(
    deps.throttle,
    `sends:client:${clientAddress}`,
    sendsFromClient(deps.config.SENDS_PER_CLIENT_HOURLY),
  );
  if (channel === 'sms')
    await enforce(deps.throttle, 'sends:sms:site', smsBudget(deps.config.SMS_HOURLY_BUDGET));
}
