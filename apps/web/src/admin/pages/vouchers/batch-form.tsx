import { useQuery } from '@tanstack/react-query';
import { voucherBatchRequestSchema } from '@tunes/shared/console';
import { DAY_MS, SERVICE_TIME_ZONE, SERVICE_UTC_OFFSET } from '@tunes/shared/constants';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { z } from 'zod';
import { FormError, FormField, TextField } from '@/components/form-field';
import { adminApi } from '../../api';
import { schemaResolver, showFailure } from '../../forms';
import { consoleQueryClient } from '../../session';
import { batchesKey, type VoucherBatch } from './batch-types';

/** docs/console-api.md §5 limits, held by the shared schema. */
export const BATCH_LIMITS = { days: 366, count: 5000, note: 200 } as const;

const ulaanbaatarDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: SERVICE_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
/** The service's day (Ulaanbaatar's) `days` from now, as `YYYY-MM-DD` for the date field. */
const inDays = (days: number) => ulaanbaatarDay.format(new Date(Date.now() + days * DAY_MS));

/** The shared request with the expiry as the day it ends (the date field's value). */
const batchFormSchema = voucherBatchRequestSchema
  .omit({ expiresAt: true })
  .extend({ expiresOn: z.iso.date() });
const resolver = schemaResolver(batchFormSchema);
type Values = z.input<typeof batchFormSchema>;

/** Admin: a new batch of voucher codes for a plan. */
export function VoucherBatchForm() {
  const { t } = useTranslation('admin');
  const packages = useQuery({
    queryKey: ['admin', 'voucher-packages'],
    queryFn: () => adminApi<{ packages: { code: string; name: string }[] }>('/vouchers/packages'),
  });
  const defaults = (): Values => ({
    packageCode: packages.data?.packages[0]?.code ?? '',
    days: 30,
    count: 10,
    expiresOn: inDays(90),
    note: '',
  });
  const form = useForm<Values, unknown, z.output<typeof batchFormSchema>>({
    resolver,
    values: defaults(),
    resetOptions: { keepDirtyValues: true },
  });
  const { errors, isSubmitting } = form.formState;

  const create = form.handleSubmit(async ({ expiresOn, note, ...rest }) => {
    try {
      // The expiry is the end of the chosen day in Ulaanbaatar, the service's day.
      const expiresAt = new Date(`${expiresOn}T23:59:59.999${SERVICE_UTC_OFFSET}`).toISOString();
      const { batch } = await adminApi<{ batch: VoucherBatch }>('/vouchers/batches', {
        method: 'POST',
        json: { ...rest, expiresAt, ...(note ? { note } : {}) },
      });
      await consoleQueryClient.invalidateQueries({ queryKey: batchesKey });
      toast.success(t('vouchers.created', { count: batch.count }));
      form.reset(defaults());
    } catch (failure) {
      showFailure(form, failure, { expiresAt: 'expiresOn' });
    }
  });

  return (
    <form
      className="admin-section admin-grid-form"
      noValidate
      onSubmit={create}
      aria-labelledby="batch-title"
    >
      <h2 id="batch-title" className="admin-subtitle">
        {t('vouchers.new')}
      </h2>
      <FormField id="batch-package" label={t('fields.plan')} error={errors.packageCode?.message}>
        {(control) => (
          <select {...control} className="select" {...form.register('packageCode')}>
            {packages.data?.packages.map((item) => (
              <option key={item.code} value={item.code}>
                {item.name} ({item.code})
              </option>
            ))}
          </select>
        )}
      </FormField>
      <TextField
        id="batch-days"
        label={t('vouchers.days')}
        error={errors.days?.message}
        type="number"
        inputMode="numeric"
        min={1}
        max={BATCH_LIMITS.days}
        {...form.register('days', { valueAsNumber: true })}
      />
      <TextField
        id="batch-count"
        label={t('vouchers.count')}
        error={errors.count?.message}
        type="number"
        inputMode="numeric"
        min={1}
        max={BATCH_LIMITS.count}
        {...form.register('count', { valueAsNumber: true })}
      />
      <TextField
        id="batch-expires"
        label={t('vouchers.expires')}
        error={errors.expiresOn?.message}
        type="date"
        min={inDays(1)}
        {...form.register('expiresOn')}
      />
      <TextField
        id="batch-note"
        label={t('vouchers.note')}
        error={errors.note?.message}
        className="admin-grid-wide"
        maxLength={BATCH_LIMITS.note}
        {...form.register('note')}
      />
      {errors.root?.server && <FormError>{errors.root.server.message}</FormError>}
      <div className="admin-grid-actions">
        <button
          type="submit"
          className="button button--primary"
          disabled={isSubmitting || !packages.data}
          aria-busy={isSubmitting}
        >
          {t('vouchers.create')}
        </button>
      </div>
    </form>
  );
}
