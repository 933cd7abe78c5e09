import type { RefundAnswer } from '@tunes/shared/console';
import { refundRequestSchema } from '@tunes/shared/console';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormField, TextField } from '@/components/form-field';
import { formatPrice } from '@/lib/format';
import { adminApi } from '../../api';
import { ConfirmedAction } from '../../components';
import { checked, schemaResolver } from '../../forms';
import type { PaymentView } from './types';

const REASON_MAX = 500;

/** The shared refund request, the amount at most what is left of the payment. */
function refundFormSchema(left: number) {
  return refundRequestSchema.extend({ amount: refundRequestSchema.shape.amount.unwrap().max(left) });
}
type Schema = ReturnType<typeof refundFormSchema>;

/**
 * An admin's refund: what was paid and given back so far, and the amount to give now (all that
 * is left unless changed; QPay gives back a whole payment only).
 */
export function RefundAction({ payment, reload }: { payment: PaymentView; reload(): Promise<void> }) {
  const { t, i18n } = useTranslation('admin');
  const price = (amount: number) => formatPrice(amount, payment.currency, i18n.language);
  const left = Math.max(0, payment.amount - payment.refunded);
  const whole = payment.method === 'qpay';
  const resolver = useMemo(() => schemaResolver(refundFormSchema(left)), [left]);
  const form = useForm<z.input<Schema>, unknown, z.output<Schema>>({
    resolver,
    defaultValues: { amount: left, reason: t('refund.default-reason') },
  });
  const amount = form.watch('amount');
  const id = `refund-${payment.invoiceId}`;
  const { errors } = form.formState;
  return (
    <ConfirmedAction
      label={t('refund.action')}
      title={t('refund.title')}
      danger
      run={async () => {
        const values = await checked(form);
        const refund = await adminApi<RefundAnswer>(
          `/payments/${encodeURIComponent(payment.invoiceId)}/refund`,
          {
            method: 'POST',
            json: values,
          },
        );
        await reload();
        return refund.status === 'refunded'
          ? t('refund.done', { amount: price(refund.amount) })
          : t('refund.done-partly', { amount: price(refund.amount), remaining: price(refund.remaining) });
      }}
    >
      <p>{t('refund.question')}</p>
      <dl className="admin-facts">
        <dt>{t('refund.paid')}</dt>
        <dd>{price(payment.amount)}</dd>
        <dt>{t('refund.already')}</dt>
        <dd>{price(payment.refunded)}</dd>
        <dt>{t('refund.left')}</dt>
        <dd>{price(left)}</dd>
      </dl>
      <TextField
        id={`${id}-amount`}
        label={t('refund.amount')}
        hint={
          whole
            ? t('refund.qpay-whole')
            : t('refund.amount-hint', { max: price(left), amount: price(Number(amount) || 0) })
        }
        error={errors.amount?.message}
        type="number"
        inputMode="numeric"
        min={1}
        max={left}
        step={1}
        readOnly={whole}
        {...form.register('amount', { valueAsNumber: true })}
      />
      <FormField id={id} label={t('refund.reason')} error={errors.reason?.message}>
        {(control) => (
          <textarea {...control} className="textarea" maxLength={REASON_MAX} {...form.register('reason')} />
        )}
      </FormField>
    </ConfirmedAction>
  );
}
