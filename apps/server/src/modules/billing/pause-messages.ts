import type { Pause } from '@tunes/shared/billing';
import type { Deps } from '../../deps.js';
import { messageDate } from '../../lib/message-date.js';
import type { Lang } from '../../lib/message-language.js';
import { money } from '../premium/messages.js';

/** The plan's name in each language (the next period's plan: a waiting downgrade's). */
export async function planNameOf(db: Deps['db'], subscriptionId: string) {
  const plan = await db
    .selectFrom('subscriptions as s')
    .innerJoin('packages as p', (join) =>
      join.on((eb) => eb('p.id', '=', eb.fn.coalesce('s.next_package_id', 's.package_id'))),
    )
    .select(['p.name_en', 'p.name_mn'])
    .where('s.id', '=', subscriptionId)
    .executeTakeFirstOrThrow();
  return (lang: Lang) => (lang === 'mn' ? plan.name_mn : plan.name_en);
}

type PauseFacts = Pick<Pause, 'months' | 'startsAt' | 'resumesAt' | 'members' | 'amount' | 'currency'>;

const months = (count: number) => `${count} month${count === 1 ? '' : 's'}`;

/** Texts of a pause's messages, with the dates the profile shows (Ulaanbaatar's day). */
export const pauseMessages = {
  paused: (lang: Lang, plan: string, pause: PauseFacts) => {
    const from = messageDate(new Date(pause.startsAt), lang);
    const until = messageDate(new Date(pause.resumesAt), lang);
    const price = money(lang, pause);
    if (lang === 'mn') {
      const members =
        pause.members > 0 ? ' Түр зогсолтын үед таны багцын гишүүдэд ч Премиум эрх байхгүй.' : '';
      return `Таны ${plan} багц ${from}-нд ${pause.months} сараар түр зогсоно. Тэр хүртэл Премиум эрхээ ашиглана; ${until}-нд сэргэж, таны картаас ${price} татагдана.${members}`;
    }
    const members =
      pause.members > 0 ? ' The members of your plan have no Premium during the pause either.' : '';
    return `Your ${plan} pauses on ${from} for ${months(pause.months)}. You keep Premium until then; it resumes on ${until} and we charge ${price} to your card.${members}`;
  },
  resuming: (lang: Lang, plan: string, pause: PauseFacts) => {
    const on = messageDate(new Date(pause.resumesAt), lang);
    const price = money(lang, pause);
    return lang === 'mn'
      ? `Таны ${plan} багц ${on}-нд сэргэнэ: таны картаас ${price} татагдана. Эрт сэргээх бол Профайл хэсэгт орно уу.`
      : `Your ${plan} resumes on ${on}: we will charge ${price} to your card. To resume earlier, open your profile.`;
  },
};
