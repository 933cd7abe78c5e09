import type { Plan } from '@tunes/shared/premium';
import { SilentLogin } from '@/features/accounts/components/silent-login';
import { OfferCodeField, OfferPrice } from '@/features/offers/components/offer-code-field';
import { offerPriceOf, useOfferCode } from '@/features/offers/components/use-offer-code';
import { type PlanExtras, PremiumPage } from '@/features/premium/components/premium-page';
import { useTrialEligibility } from '@/features/trials/api/trial';
import { TrialOffer, TrialRefusedNote } from '@/features/trials/components/trial-offer';
import { useIsSubscribed, useSession } from '@/lib/auth';

/**
 * /premium: silent login from the query (accounts), then the plans (premium), with an offer
 * code — typed or from a `/premium?offer=CODE` link — pricing them (offers) and a first-time
 * free trial when the listener may start one (trials).
 */
export default function PremiumRoute() {
  const session = useSession();
  const subscribed = useIsSubscribed();
  const offerCode = useOfferCode(subscribed);
  const offer = offerCode.offer;
  const trial = useTrialEligibility(!subscribed).data;
  const trialPlans = trial?.eligible ? trial.plans : [];
  const trialRefused =
    session && trial && !trial.eligible && trial.plans.length > 0 && trial.reason !== 'subscribed'
      ? (trial.reason ?? 'used_account')
      : null;

  const extrasOf = (plan: Plan): PlanExtras => {
    const price = offerPriceOf(offer, plan.MerchantCode);
    const planTrial = trialPlans.find((entry) => entry.MerchantCode === plan.MerchantCode);
    return {
      offer: offer && price !== null && (
        <OfferPrice offer={offer} price={price} fullPrice={plan.Cost} currency={plan.Currency} />
      ),
      trial: planTrial && planTrial.TrialDays > 0 && <TrialOffer plan={plan} trial={planTrial} />,
      offerCode: offer && price !== null ? offer.code : undefined,
    };
  };

  return (
    <>
      <SilentLogin />
      <PremiumPage
        beforePlans={
          <>
            <OfferCodeField state={offerCode} />
            {trialRefused && <TrialRefusedNote reason={trialRefused} />}
          </>
        }
        extrasOf={extrasOf}
      />
    </>
  );
}
