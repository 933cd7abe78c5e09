import { isIPv6 } from 'node:net';
import type { Deps } from '../../deps.js';
import { tooManyRequests } from '../../lib/errors.js';
import { freeSendsFromClient, sendsFromClient, smsBudget, smsPerPrefix } from '../../lib/limits.js';
import { type Limit, refusalOf } from '../../lib/throttle.js';
import type { Channel } from './schema.js';
import { issueSendChallenge, spendSendProof } from './send-challenge.js';

type BudgetDeps = Pick<Deps, 'throttle' | 'config' | 'clock'>;

export interface SendRequest {
  channel: Channel;
  /** Who receives it: the number or address the per-recipient limits and the prefix count. */
  recipient: string;
  /** The client address that asked. */
  clientAddress: string;
  /**
   * `visitor`: a sign-in code asked for by anyone; past the address's free sends it needs a solved
   * challenge (`proof`). `account`: a message a signed-in listener's own action or an account's
   * reset link sends; bounded per account, it counts toward the hard cap only.
   */
  sender: 'visitor' | 'account';
  /** ALTCHA's payload of a solved challenge (a `challenge_required` answer's). */
  proof?: string;
}

/** One step of a send's budget: a throttle key and its limit. */
export type BudgetStep = readonly [key: string, limit: Limit];

/**
 * The network a client address stands for: an IPv4 address, or the /64 of an IPv6 one (one
 * subscriber's prefix; an address within it costs its holder nothing to change).
 */
export function networkOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** The block of numbers SMS pumping walks: all but the last four digits. */
const prefixOf = (msisdn: string) => msisdn.slice(0, -4);

/**
 * Takes one message from every budget that stops a client from using the site to text or mail
 * strangers (SMS pumping, mail bombing), all or none (security.md "Sends"):
 *
 * 1. the recipient's own limits (`perRecipient`, cheap and specific, first);
 * 2. the client's network: a visitor has `SENDS_PER_CLIENT_HOURLY` free sends an hour, then each
 *    needs a solved challenge (429 `challenge_required` carries one); every send counts toward
 *    the hard cap `SENDS_PER_CLIENT_HOURLY_MAX`, when no challenge helps (429 `network_limit`);
 * 3. for a text, the number's prefix (`SMS_PER_PREFIX_HOURLY`);
 * 4. for a text, the whole site's hourly budget.
 *
 * The shared budgets (prefix, site) come after the client's own, so a burst from one network
 * that its own budget refuses never holds, even for the moment before its refunds, a count that
 * other listeners of the prefix or the site need.
 *
 * A refusal gives back what the request had taken, so it leaves no count behind (a listener
 * asked for a challenge retries at once, not after the 30 s resend wait); each take is one atomic
 * step, so a burst at once is judged like the same requests in a row. A proof, once checked, is
 * spent whatever follows.
 */
export async function takeSendBudget(
  deps: BudgetDeps,
  request: SendRequest,
  perRecipient: readonly BudgetStep[] = [],
): Promise<void> {
  const { config, throttle } = deps;
  const network = networkOf(request.clientAddress);
  const taken: string[] = [];
  const take = async ([key, limit]: BudgetStep) => {
    const result = await throttle.take(key, limit);
    if (!result.allowed) throw refusalOf(limit, result.retryAfterSeconds);
    taken.push(key);
  };
  try {
    for (const step of perRecipient) await take(step);
    const hardCap: BudgetStep = [
      `sends:client:${network}`,
      sendsFromClient(config.SENDS_PER_CLIENT_HOURLY_MAX),
    ];
    if (request.sender === 'visitor') {
      if (request.proof) await spendSendProof(deps, request.proof);
      else await takeFreeSend(deps, network, hardCap, taken);
    }
    await take(hardCap);
    if (request.channel === 'sms') {
      await take([`sends:prefix:${prefixOf(request.recipient)}`, smsPerPrefix(config.SMS_PER_PREFIX_HOURLY)]);
      await take(['sends:sms:site', smsBudget(config.SMS_HOURLY_BUDGET)]);
    }
  } catch (error) {
    await Promise.all(taken.map((key) => throttle.refund(key)));
    throw error;
  }
}

/**
 * One of the network's free sends, or the refusal that says what helps: a challenge to solve, or
 * (the hard cap spent too) nothing but waiting.
 */
async function takeFreeSend(deps: BudgetDeps, network: string, hardCap: BudgetStep, taken: string[]) {
  const free = freeSendsFromClient(deps.config.SENDS_PER_CLIENT_HOURLY);
  const key = `sends:free:${network}`;
  const result = await deps.throttle.take(key, free);
  if (result.allowed) {
    taken.push(key);
    return;
  }
  const hardWait = await deps.throttle.secondsUntilFree(...hardCap);
  if (hardWait > 0) throw refusalOf(hardCap[1], hardWait);
  const challenge = await issueSendChallenge(deps);
  throw tooManyRequests(result.retryAfterSeconds, free.message, { reason: free.reason, challenge });
}
