import { useQuery } from '@tanstack/react-query';
import { SERVICE_TIME_ZONE, SERVICE_UTC_OFFSET } from '@tunes/shared/constants';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { adminApi, errorText } from '../api';
import { ConfirmedAction, QueryState, Table, When } from '../components';
import { consoleQueryClient } from '../session';

interface VoucherBatch {
  id: string;
  packageCode: string;
  days: number;
  count: number;
  expiresAt: string;
  createdAt: string;
  createdBy: string;
  redeemed: number;
  revoked: number;
  note: string | null;
}

/** docs/console-api.md §5 limits, also held by the form. */
export const BATCH_LIMITS = { days: 366, count: 5000, note: 200 } as const;
const batchesKey = ['admin', 'voucher-batches'];

const ulaanbaatarDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: SERVICE_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
/** The service's day (Ulaanbaatar's) `days` from now, as `YYYY-MM-DD` for the date field. */
const inDays = (days: number) => ulaanbaatarDay.format(new Date(Date.now() + days * 86_400_000));

/** Admin: voucher batches — make one, list them, download codes, revoke the unused ones. */
export default function VouchersPage() {
  const { t } = useTranslation('admin');
  const packages = useQuery({
    queryKey: ['admin', 'voucher-packages'],
    queryFn: () => adminApi<{ packages: { code: string; name: string }[] }>('/vouchers/packages'),
  });
  const batches = useQuery({
    queryKey: batchesKey,
    queryFn: () => adminApi<{ batches: VoucherBatch[] }>('/vouchers/batches'),
  });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setBusy(true);
    setError(null);
    try {
      const note = String(data.get('note')).trim();
      // The expiry is the end of the chosen day in Ulaanbaatar, the service's day.
      const expiresAt = new Date(
        `${String(data.get('expiresAt'))}T23:59:59.999${SERVICE_UTC_OFFSET}`,
      ).toISOString();
      const { batch } = await adminApi<{ batch: VoucherBatch }>('/vouchers/batches', {
        method: 'POST',
        json: {
          packageCode: String(data.get('packageCode')),
          days: Number(data.get('days')),
          count: Number(data.get('count')),
          expiresAt,
          ...(note ? { note } : {}),
        },
      });
      await consoleQueryClient.invalidateQueries({ queryKey: batchesKey });
      toast.success(t('vouchers.created', { count: batch.count }));
      form.reset();
    } catch (failure) {
      setError(errorText(failure, t));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <h1 className="admin-title">{t('vouchers.title')}</h1>
      <form
        className="admin-form admin-section admin-grid-form"
        onSubmit={create}
        aria-labelledby="batch-title"
      >
        <h2 id="batch-title" className="admin-subtitle">
          {t('vouchers.new')}
        </h2>
        <div className="field">
          <label className="field__label" htmlFor="batch-package">
            {t('fields.plan')}
          </label>
          <select id="batch-package" name="packageCode" className="select" required>
            {packages.data?.packages.map((item) => (
              <option key={item.code} value={item.code}>
                {item.name} ({item.code})
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="batch-days">
            {t('vouchers.days')}
          </label>
          <input
            id="batch-days"
            name="days"
            className="input"
            type="number"
            min={1}
            max={BATCH_LIMITS.days}
            defaultValue={30}
            required
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="batch-count">
            {t('vouchers.count')}
          </label>
          <input
            id="batch-count"
            name="count"
            className="input"
            type="number"
            min={1}
            max={BATCH_LIMITS.count}
            defaultValue={10}
            required
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="batch-expires">
            {t('vouchers.expires')}
          </label>
          <input
            id="batch-expires"
            name="expiresAt"
            className="input"
            type="date"
            min={inDays(1)}
            defaultValue={inDays(90)}
            required
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="batch-note">
            {t('vouchers.note')}
          </label>
          <input id="batch-note" name="note" className="input" maxLength={BATCH_LIMITS.note} />
        </div>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <button
          type="submit"
          className="button button--primary"
          disabled={busy || !packages.data}
          aria-busy={busy}
        >
          {t('vouchers.create')}
        </button>
      </form>
      <h2 className="admin-subtitle">{t('vouchers.batches')}</h2>
      <QueryState pending={batches.isPending} error={batches.error} />
      {batches.data && (
        <Table caption={t('vouchers.batches')}>
          <thead>
            <tr>
              <th scope="col">{t('fields.created')}</th>
              <th scope="col">{t('fields.plan')}</th>
              <th scope="col">{t('vouchers.days')}</th>
              <th scope="col">{t('vouchers.count')}</th>
              <th scope="col">{t('vouchers.used')}</th>
              <th scope="col">{t('vouchers.expires')}</th>
              <th scope="col">{t('vouchers.by')}</th>
              <th scope="col">{t('fields.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {batches.data.batches.map((batch) => (
              <tr key={batch.id}>
                <td>
                  <When at={batch.createdAt} />
                  {batch.note && <div className="admin-muted">{batch.note}</div>}
                </td>
                <td>{batch.packageCode}</td>
                <td>{batch.days}</td>
                <td>{batch.count}</td>
                <td>{t('vouchers.used-of', { redeemed: batch.redeemed, revoked: batch.revoked })}</td>
                <td>
                  <When at={batch.expiresAt} />
                </td>
                <td>{batch.createdBy}</td>
                <td className="admin-actions">
                  <a
                    className="button button--ghost admin-small"
                    href={`/api/admin/vouchers/batches/${encodeURIComponent(batch.id)}/codes.csv`}
                    download
                  >
                    {t('vouchers.csv')}
                  </a>
                  <ConfirmedAction
                    label={t('vouchers.revoke')}
                    title={t('vouchers.revoke')}
                    danger
                    disabled={batch.redeemed + batch.revoked >= batch.count}
                    run={async () => {
                      const { revokedNow } = await adminApi<{ revokedNow: number }>(
                        `/vouchers/batches/${encodeURIComponent(batch.id)}/revoke`,
                        { method: 'POST', json: {} },
                      );
                      await consoleQueryClient.invalidateQueries({ queryKey: batchesKey });
                      return t('vouchers.revoked', { count: revokedNow });
                    }}
                  >
                    <p>{t('vouchers.revoke-question')}</p>
                  </ConfirmedAction>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}
