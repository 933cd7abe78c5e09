import { VOUCHER_MAX_LENGTH } from '@tunes/shared/constants';
import { useState } from 'react';
import { useController, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TextField } from '@/components/form-field';
import { lazyZodResolver } from '@/lib/lazy-resolver';
import { useRedeemVoucher } from '../api/redeem-voucher';
import styles from './voucher-box.module.css';
import { toVoucherInput } from './voucher-input';

const resolver = lazyZodResolver<{ code: string }>(() =>
  import('@tunes/shared/vouchers').then((vouchers) => vouchers.redeemVoucherQuerySchema),
);

type Result = { kind: 'success' } | { kind: 'error'; message: string };

/** The voucher redeem box of /profile: idle → loading → success or error (product.md §4/§8). */
export function VoucherBox() {
  const { t } = useTranslation('vouchers');
  const redeem = useRedeemVoucher();
  const [result, setResult] = useState<Result | null>(null);
  const { control, handleSubmit, reset } = useForm<{ code: string }>({
    resolver,
    defaultValues: { code: '' },
  });
  const { field, fieldState } = useController({ control, name: 'code' });

  const onSubmit = handleSubmit(({ code }) => {
    setResult(null);
    redeem.mutate(code, {
      onSuccess: () => {
        reset();
        setResult({ kind: 'success' });
      },
      onError: (error) => setResult({ kind: 'error', message: error.message }),
    });
  });

  return (
    <section className={`card ${styles.box}`} aria-labelledby="voucher-title">
      <h2 id="voucher-title">{t('title')}</h2>
      <p>{t('text')}</p>
      <form className={styles.form} onSubmit={onSubmit} onFocus={resolver.warm} noValidate>
        <TextField
          id="voucher-code"
          label={t('label')}
          hint={t('hint')}
          error={fieldState.error?.message}
          className={styles.field}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={VOUCHER_MAX_LENGTH}
          pattern="[A-Za-z0-9\-]*"
          name={field.name}
          ref={field.ref}
          value={field.value}
          onBlur={field.onBlur}
          onChange={(event) => {
            field.onChange(toVoucherInput(event.target.value));
            if (result) setResult(null);
          }}
        />
        <button
          type="submit"
          className="button button--primary"
          disabled={redeem.isPending}
          aria-busy={redeem.isPending}
        >
          {redeem.isPending ? t('submitting') : t('submit')}
        </button>
      </form>
      <p
        className={result?.kind === 'error' ? styles.error : styles.success}
        role={result?.kind === 'error' ? 'alert' : 'status'}
      >
        {result?.kind === 'success' ? t('success') : result?.kind === 'error' ? result.message : ''}
      </p>
    </section>
  );
}
