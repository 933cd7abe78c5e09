import type { Deps } from '../../deps.js';
import type { ErrorLog } from '../../lib/logging.js';
import { messageDate } from '../../lib/message-date.js';
import type { Lang } from '../../lib/message-language.js';
import { type Amount, money } from './messages.js';
import { notifyOnce } from './notices.js';
import './tables.js';

/** The site's page of one paid invoice's receipt (`/receipts/{invoiceId}`, signed in). */
export const receiptPage = (publicUrl: string, invoiceId: string) =>
  `${publicUrl}/receipts/${encodeURIComponent(invoiceId)}`;

/** Texts of the message after each charge, each with its receipt link, in the payer's language. */
export const paidMessages = {
  welcome: (lang: Lang, plan: string, price: Amount, until: Date, link: string) =>
    lang === 'mn'
      ? `Премиумд тавтай морил! Таны ${plan} багц идэвхжлээ, ${messageDate(until, lang)} хүртэл хүчинтэй. Хязгааргүй алгасах, оффлайн сонсох, зар сурталчилгаагүй. ${money(lang, price)} төлбөрийн баримт: ${link}`
      : `Welcome to Premium! Your ${plan} is active until ${messageDate(until, lang)}: unlimited skips, offline listening, no ads. Receipt for ${money(lang, price)}: ${link}`,
  purchased: (lang: Lang, plan: string, price: Amount, until: Date, link: string) =>
    lang === 'mn'
      ? `Таны ${plan} багц идэвхжлээ, ${messageDate(until, lang)} хүртэл хүчинтэй. ${money(lang, price)} төлбөрийн баримт: ${link}`
      : `Your ${plan} is active until ${messageDate(until, lang)}. Receipt for ${money(lang, price)}: ${link}`,
  renewed: (lang: Lang, plan: string, price: Amount, until: Date, link: string) =>
    lang === 'mn'
      ? `Таны ${plan} багц сунгагдлаа: ${money(lang, price)} төлөгдсөн. ${messageDate(until, lang)} хүртэл хүчинтэй. Баримт: ${link}`
      : `Your ${plan} renewed: ${money(lang, price)} paid. It runs until ${messageDate(until, lang)}. Receipt: ${link}`,
  changed: (lang: Lang, plan: string, price: Amount, link: string) =>
    lang === 'mn'
      ? `${plan} багцын зөрүү ${money(lang, price)} төлөгдлөө. Баримт: ${link}`
      : `The difference for ${plan} of ${money(lang, price)} is paid. Receipt: ${link}`,
};

/** What the message after a charge says: the paid invoice, its plan and the period's end. */
export interface PaidFacts {
  invoice_id: string;
  user_id: string;
  kind: string;
  amount: number;
  currency: string;
  /** The period's end as the profile shows it: the subscription's, else the invoice's own. */
  until: Date | null;
  name_en: string;
  name_mn: string;
  /** A purchase by a payer who bought before: "active until", not "welcome". */
  bought_before: boolean;
}

/**
 * The message after a charge (issue 37): every paid invoice — a first purchase (welcome to
 * Premium), a later purchase, a renewal, an upgrade's difference; card or QPay — tells its payer
 * once, with the receipt's link and the period's end as the profile shows it. Called where a
 * capture is applied (capture-once.ts), so every way of paying is covered by one call; that
 * call passes what it knows of the invoice (`known`), so nothing is read again.
 */
export async function tellPaid(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  invoiceId: string,
  subscriptionId: string | null,
  log?: ErrorLog,
  known?: PaidFacts,
): Promise<boolean> {
  const invoice = known ?? (await paidFacts(deps, invoiceId, subscriptionId));
  if (!invoice) return false;
  const link = receiptPage(deps.config.PUBLIC_URL, invoice.invoice_id);
  const plan = (lang: Lang) => (lang === 'mn' ? invoice.name_mn : invoice.name_en);
  const price = { amount: invoice.amount, currency: invoice.currency };
  const until = invoice.until ?? deps.clock.now();
  const text = (lang: Lang) => {
    if (invoice.kind === 'renewal') return paidMessages.renewed(lang, plan(lang), price, until, link);
    if (invoice.kind === 'change') return paidMessages.changed(lang, plan(lang), price, link);
    return invoice.bought_before
      ? paidMessages.purchased(lang, plan(lang), price, until, link)
      : paidMessages.welcome(lang, plan(lang), price, until, link);
  };
  // A renewal keeps the key its message always had, so one sent before this call is not repeated.
  const key = invoice.kind === 'renewal' ? `charged:${invoice.invoice_id}` : `paid:${invoice.invoice_id}`;
  return notifyOnce(deps, { key, userId: invoice.user_id, link, text }, log);
}

/** A paid invoice's facts for its message, read; undefined unless it is paid. */
async function paidFacts(
  deps: Pick<Deps, 'db'>,
  invoiceId: string,
  subscriptionId: string | null,
): Promise<PaidFacts | undefined> {
  const invoice = await deps.db
    .selectFrom('payment_invoices as i')
    .innerJoin('packages as p', 'p.id', 'i.package_id')
    .leftJoin('subscriptions as s', (join) =>
      join.on((eb) => eb('s.id', '=', eb.fn.coalesce('i.subscription_id', eb.val(subscriptionId)))),
    )
    .select([
      'i.invoice_id',
      'i.user_id',
      'i.kind',
      'i.status',
      'i.amount',
      'i.currency',
      'i.period_end',
      's.end_date',
      'p.name_en',
      'p.name_mn',
    ])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('payment_invoices as earlier')
            .select('earlier.invoice_id')
            .whereRef('earlier.user_id', '=', 'i.user_id')
            .where('earlier.kind', '=', 'purchase')
            .where('earlier.status', 'in', ['paid', 'refunded', 'partly_refunded'])
            .whereRef('earlier.invoice_id', '<>', 'i.invoice_id')
            .whereRef('earlier.settled_at', '<', 'i.settled_at'),
        )
        .as('bought_before'),
    )
    .where('i.invoice_id', '=', invoiceId)
    .executeTakeFirst();
  if (invoice?.status !== 'paid') return undefined;
  return {
    ...invoice,
    until: invoice.end_date ?? invoice.period_end,
    bought_before: Boolean(invoice.bought_before),
  };
}
