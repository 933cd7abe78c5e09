import { COMPANY_REGISTRY_ERROR, companyRegistryOf } from '@tunes/shared/billing-rules';
import { PAYMENT_CURRENCY } from '@tunes/shared/constants';
import type { Plan } from '@tunes/shared/premium';
import { PREMIUM_OFFERS, plansForSale } from '@tunes/shared/premium-rules';
import { type ReactNode, useDeferredValue, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { FormField } from '@/components/form-field';
import { PageTitle } from '@/components/page';
import { currentSubscription, useIsSubscribed, useProfile, useSession } from '@/lib/auth';
import type { ValidationKey } from '@/lib/i18n';
import { loginHref } from '@/lib/login-link';
import { usePlans } from '../api/get-plans';
import { useStartCheckout } from '../api/start-checkout';
import { useStartQpayCheckout } from '../api/start-qpay-checkout';
import { BeforePaying } from './before-paying';
import { ComparisonTable } from './comparison-table';
import { type PaymentChoice, PaymentMethodChoice } from './payment-method-choice';
import { PlanCard } from './plan-card';
import styles from './premium.module.css';
import { QpayPayment } from './qpay-payment';
import { SaveCardChoice } from './save-card-choice';
import { StoreNote } from './store-note';

/** Signing in from the plans comes back to them (issue 19), not to /profile. */
const RETURN_TO_PLANS = loginHref({ next: '/premium' });

/**
 * Holds the place of the plan cards while they load: one card-sized box per offer sold, so the
 * cards take the space the page already shows instead of pushing the page down (layout shift).
 */
function PlansLoading({ label }: { label: string }) {
  return (
    <div className={styles.plans}>
      {PREMIUM_OFFERS.map((offer, index) => (
        <div key={offer} className={`card ${styles.planPlaceholder}`}>
          {index === 0 && (
            <div className={styles.loading} role="status">
              <span className="spinner" aria-hidden="true" />
              {label}
            </div>
          )}
        </div>
      ))}
    </div>
  );
}

/** What other features add to a plan's card (issue 38), composed by the route. */
export interface PlanExtras {
  /** The plan's price with an offer code, under its own price. */
  offer?: ReactNode;
  /** A free trial's action, under the button. */
  trial?: ReactNode;
  /** The offer code a checkout of this plan sends. */
  offerCode?: string | undefined;
}

interface PremiumPageProps {
  /** Above the plans, below the ways to pay: the offer code field, a trial's note. */
  beforePlans?: ReactNode;
  extrasOf?: (plan: Plan) => PlanExtras;
}

/** /premium (product.md §2): banner, currency, plans for sale, Free vs Premium, store note. */
export function PremiumPage({ beforePlans, extrasOf }: PremiumPageProps = {}) {
  const { t } = useTranslation('premium');
  const { t: tCommon } = useTranslation('common');
  const [, navigate] = useLocation();
  const session = useSession();
  const profile = useProfile();
  const subscribed = useIsSubscribed();
  // A QPay payment in progress keeps its invoice in the address, so a reload shows it again.
  const pendingQpay = new URLSearchParams(useSearch()).get('invoice');
  const loaded = usePlans();
  // The cards render in a transition React can pause: arriving plans are not one long task
  // while the page becomes interactive (TBT, performance.md).
  const plans = useDeferredValue(loaded.plans);
  const isLoading = useDeferredValue(loaded.isLoading);
  const checkout = useStartCheckout(session?.sub);
  const qpayCheckout = useStartQpayCheckout();
  const [currency, setCurrency] = useState<string>(PAYMENT_CURRENCY);
  const [payment, setPayment] = useState<PaymentChoice>({ method: 'card', company: false, registry: '' });
  const [registryError, setRegistryError] = useState<ValidationKey>();
  const [saveCard, setSaveCard] = useState(true);

  // product.md §4: a subscribed user is sent to the home page, unless a QPay payment is on
  // screen: it goes to /success itself once its status says paid.
  useEffect(() => {
    if (subscribed && !pendingQpay) navigate('/', { replace: true });
  }, [subscribed, pendingQpay, navigate]);

  const forSale = plansForSale(plans);
  // The select is there from the first paint (with the payment currency while plans load), so
  // the heading row keeps its height when they arrive.
  const currencies = isLoading ? [PAYMENT_CURRENCY] : [...new Set(forSale.map((plan) => plan.Currency))];
  const shown = forSale.filter((plan) => plan.Currency === currency);
  const busy = checkout.isPending || checkout.isSuccess || qpayCheckout.isPending;

  const choose = (plan: Plan) => {
    if (!session) {
      navigate(RETURN_TO_PLANS);
      return;
    }
    let ebarimtRegistry: string | undefined;
    if (payment.company) {
      ebarimtRegistry = companyRegistryOf(payment.registry);
      setRegistryError(ebarimtRegistry ? undefined : COMPANY_REGISTRY_ERROR);
      if (!ebarimtRegistry) return;
    }
    const choice = {
      merchantCode: plan.MerchantCode,
      ebarimtRegistry,
      offerCode: extrasOf?.(plan).offerCode,
    };
    if (payment.method === 'card') checkout.mutate({ ...choice, saveCard });
    else
      qpayCheckout.mutate(choice, {
        onSuccess: ({ invoiceId }) => navigate(`/premium?${new URLSearchParams({ invoice: invoiceId })}`),
      });
  };

  if (session && pendingQpay) {
    return (
      <div className={`page ${styles.premium}`}>
        {/* A heading that says what the page is for, not the plans page's small label alone (issue 37). */}
        <PageTitle>{t('qpay.page-title')}</PageTitle>
        <QpayPayment invoiceId={pendingQpay} />
        <p className={styles.empty}>
          <Link href="/premium">{t('qpay.cancel')}</Link>
        </p>
      </div>
    );
  }

  return (
    <div className={`page ${styles.premium}`}>
      <section className={styles.banner} aria-labelledby="premium-title">
        <PageTitle className={styles.pageTitle}>{tCommon('pages.premium')}</PageTitle>
        <p className={styles.bannerTitle}>{t('banner.title')}</p>
        <p className={styles.bannerText}>{t('banner.text')}</p>
      </section>

      <StoreNote subscription={currentSubscription(profile.data)} />

      {!session && (
        <p className={`card ${styles.visitor}`}>
          {t('visitor.text')}{' '}
          <Link href={RETURN_TO_PLANS} className="button button--ghost">
            {t('visitor.login')}
          </Link>
        </p>
      )}

      <section aria-labelledby="plans-title" aria-busy={isLoading}>
        <div className={styles.plansHead}>
          <h2 id="plans-title">{t('plans-title')}</h2>
          {currencies.length > 0 && (
            <FormField id="plan-currency" label={t('currency')} className={styles.currency}>
              {(control) => (
                <select
                  {...control}
                  className="select"
                  value={currency}
                  onChange={(event) => setCurrency(event.target.value)}
                >
                  {currencies.map((code) => (
                    <option key={code} value={code}>
                      {code}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
          )}
        </div>

        {session && (
          <PaymentMethodChoice value={payment} onChange={setPayment} registryError={registryError} />
        )}
        {session && payment.method === 'card' && <SaveCardChoice checked={saveCard} onChange={setSaveCard} />}
        {beforePlans}

        {isLoading ? (
          <PlansLoading label={t('loading')} />
        ) : shown.length === 0 ? (
          <p className={styles.empty}>{t('empty')}</p>
        ) : (
          <div className={styles.plans}>
            {shown.map((plan) => {
              const extras = extrasOf?.(plan);
              return (
                <PlanCard
                  key={plan.MerchantCode}
                  plan={plan}
                  onChoose={choose}
                  busy={busy}
                  offer={extras?.offer}
                  trial={extras?.trial}
                />
              );
            })}
          </div>
        )}
        <p className="visually-hidden" role="status">
          {busy ? t('checkout.redirecting') : ''}
        </p>
      </section>

      <ComparisonTable />
      <BeforePaying />
    </div>
  );
}
