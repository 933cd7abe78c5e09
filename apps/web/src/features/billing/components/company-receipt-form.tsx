import { COMPANY_REGISTRY_ERROR, companyRegistryOf } from '@tunes/shared/billing-rules';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { userMessage } from '@/lib/api-error';
import { useRequestCompanyReceipt } from '../api/get-ebarimt-receipt';
import styles from './ebarimt.module.css';

/**
 * "Issue it to a company": the registry number of the company the e-barimt should name, for a
 * payment whose receipt went to a citizen. The server looks the company up and replaces the
 * receipt once.
 */
export function CompanyReceiptForm({ invoiceId }: { invoiceId: string }) {
  const { t } = useTranslation('ebarimt');
  const { t: tCommon } = useTranslation('common');
  const id = useId();
  const request = useRequestCompanyReceipt(invoiceId);
  const [registry, setRegistry] = useState('');
  const [error, setError] = useState<string>();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const number = companyRegistryOf(registry);
    if (!number) {
      setError(tCommon(COMPANY_REGISTRY_ERROR));
      return;
    }
    setError(undefined);
    request.mutate(number, { onError: (failure) => setError(userMessage(failure)) });
  };

  return (
    <details className={styles.company}>
      <summary>{t('company-ask')}</summary>
      <form className={styles.companyForm} onSubmit={onSubmit} noValidate>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-registry`}>
            {t('company-label')}
          </label>
          <input
            id={`${id}-registry`}
            className="input"
            inputMode="numeric"
            autoComplete="off"
            maxLength={7}
            value={registry}
            aria-describedby={`${id}-error`}
            aria-invalid={Boolean(error)}
            onChange={(event) => setRegistry(event.target.value.replace(/\D/g, ''))}
          />
          <span id={`${id}-error`} className="field__error">
            {error ?? ''}
          </span>
        </div>
        <button
          type="submit"
          className="button button--ghost"
          disabled={request.isPending}
          aria-busy={request.isPending}
        >
          {request.isPending ? t('company-submitting') : t('company-submit')}
        </button>
      </form>
    </details>
  );
}
