import { PREMIUM_OFFERS } from '@tunes/shared/premium-rules';
import type { TranslationKey } from '@/lib/i18n';

/** The comparison rows (product.md §2): Free has only the first, Premium all seven. */
export const COMPARISON_FEATURES = [
  'features.listen',
  'features.skips',
  'features.plays',
  'features.offline',
  'features.no-ads',
  'features.downloads',
  'features.playlists',
] as const satisfies readonly TranslationKey<'premium'>[];

/** The six feature lines of every plan card: what Premium adds. */
export const PLAN_FEATURES = COMPARISON_FEATURES.slice(1);

type PremiumOffer = (typeof PREMIUM_OFFERS)[number];

const OFFER_TEXTS = {
  premium: { type: 'plan.type.premium', highlight: 'plan.highlight.premium' },
  'premium-duo': { type: 'plan.type.premium-duo', highlight: 'plan.highlight.premium-duo' },
  'premium-family': { type: 'plan.type.premium-family', highlight: 'plan.highlight.premium-family' },
} as const satisfies Record<PremiumOffer, Record<'type' | 'highlight', TranslationKey<'premium'>>>;

/** The type and highlight line of an offer sold on /premium; none for another offer. */
export function offerTexts(offer: string): (typeof OFFER_TEXTS)[PremiumOffer] | undefined {
  return (PREMIUM_OFFERS as readonly string[]).includes(offer)
    ? OFFER_TEXTS[offer as PremiumOffer]
    : undefined;
}
