import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../api';
import { ConfirmedAction, QueryState, Table, When } from '../../components';
import { consoleQueryClient } from '../../session';
import { VoucherBatchForm } from './batch-form';
import { batchesKey, type VoucherBatch } from './batch-types';

/** Admin: voucher batches — make one, list them (the command line's too), download, revoke. */
export default function VouchersPage() {
  const { t } = useTranslation('admin');
  const batches = useQuery({
    queryKey: batchesKey,
    queryFn: () => adminApi<{ batches: VoucherBatch[] }>('/vouchers/batches'),
  });

  return (
    <>
      <h1 className="admin-title">{t('vouchers.title')}</h1>
      <VoucherBatchForm />
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
              <BatchRow key={batch.id} batch={batch} />
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}

function BatchRow({ batch }: { batch: VoucherBatch }) {
  const { t } = useTranslation('admin');
  return (
    <tr>
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
      <td>{batch.createdBy ?? t('vouchers.command-line')}</td>
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
  );
}
