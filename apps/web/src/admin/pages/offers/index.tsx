import { useQuery } from '@tanstack/react-query';
import type { ConsoleOffer } from '@tunes/shared/offers';
import { useTranslation } from 'react-i18next';
import { formatPrice } from '@/lib/format';
import { ConfirmedAction, QueryState, Table, When } from '../../components';
import { endOffer, listOffers, offersKey } from './offer-api';
import { NewOfferForm } from './offer-form';
import styles from './offers.module.css';

/** Admin: offers (issue 38) — make one, list them with their redemptions and link, end one. */
export default function OffersPage() {
  const { t } = useTranslation('admin');
  const offers = useQuery({ queryKey: offersKey, queryFn: listOffers });
  return (
    <>
      <h1 className="admin-title">{t('offers.title')}</h1>
      <p className="admin-muted">{t('offers.intro')}</p>
      <NewOfferForm />
      <h2 className="admin-subtitle">{t('offers.list')}</h2>
      <QueryState pending={offers.isPending} error={offers.error} />
      {offers.data && offers.data.offers.length === 0 && <p>{t('offers.none')}</p>}
      {offers.data && offers.data.offers.length > 0 && (
        <Table caption={t('offers.list')}>
          <thead>
            <tr>
              <th scope="col">{t('offers.fields.code')}</th>
              <th scope="col">{t('offers.discount')}</th>
              <th scope="col">{t('offers.fields.audience')}</th>
              <th scope="col">{t('offers.fields.plans')}</th>
              <th scope="col">{t('offers.redeemed')}</th>
              <th scope="col">{t('offers.fields.endsOn')}</th>
              <th scope="col">{t('offers.status')}</th>
              <th scope="col">{t('fields.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {offers.data.offers.map((offer) => (
              <OfferRow key={offer.id} offer={offer} />
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}

type OfferState = 'open' | 'ended' | 'expired' | 'used-up';

function stateOf(offer: ConsoleOffer): OfferState {
  if (offer.endedAt) return 'ended';
  if (new Date(offer.endsAt).getTime() <= Date.now()) return 'expired';
  return offer.redeemed >= offer.maxRedemptions ? 'used-up' : 'open';
}

function OfferRow({ offer }: { offer: ConsoleOffer }) {
  const { t, i18n } = useTranslation('admin');
  const state = stateOf(offer);
  const discount =
    offer.kind === 'percent' ? `${offer.value}%` : formatPrice(offer.value, 'MNT', i18n.language);
  const link = `${location.origin}/premium?offer=${encodeURIComponent(offer.code)}`;
  return (
    <tr>
      <th scope="row">
        {offer.code}
        <div className={`admin-muted ${styles.link}`}>{link}</div>
      </th>
      <td>{t('offers.discount-for', { discount, count: offer.periods })}</td>
      <td>{t(`offers.audiences.${offer.audience}`)}</td>
      <td>{offer.plans ? offer.plans.join(', ') : t('offers.all-plans')}</td>
      <td>{t('offers.redeemed-of', { redeemed: offer.redeemed, limit: offer.maxRedemptions })}</td>
      <td>
        <When at={offer.endsAt} />
      </td>
      <td>
        {t(`offers.states.${state}`)}
        {offer.endedAt && (
          <div className="admin-muted">
            <When at={offer.endedAt} />
          </div>
        )}
      </td>
      <td className="admin-actions">
        <ConfirmedAction
          label={t('offers.end')}
          title={t('offers.end-title', { code: offer.code })}
          danger
          disabled={state === 'ended'}
          run={async () => {
            await endOffer(offer);
            return t('offers.ended', { code: offer.code });
          }}
        >
          <p>{t('offers.end-question')}</p>
        </ConfirmedAction>
      </td>
    </tr>
  );
}
