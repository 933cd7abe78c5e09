import type { Company } from '@tunes/shared/billing';
import { COMPANY_REGISTRY_ERROR, companyRegistryOf } from '@tunes/shared/billing-rules';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { userMessage } from '@/lib/api-error';
import { useRequestCompanyReceipt } from '../api/get-ebarimt-receipt';
import { useLookUpCompany } from '../api/look-up-company';
import styles from './ebarimt.module.css';

/**
 * "Issue it to a company": the registry number of the company the e-barimt should name, for a
 * payment whose receipt went to a citizen. The company's name is looked up and shown first
 * (issue 37); only "Issue the receipt to <name>" asks the server to replace the receipt, once.
 */
export function CompanyReceiptForm({ invoiceId }: { invoiceId: string }) {
  const { t } = useTranslation('ebarimt');
  const { t: tCommon } = useTranslation('common');
  const id = useId();
  const request = useRequestCompanyReceipt(invoiceId);
  const lookUp = useLookUpCompany();
  const [registry, setRegistry] = useState('');
  const [company, setCompany] = useState<Company | null>(null);
  const [error, setError] = useState<string>();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const number = companyRegistryOf(registry);
    if (!number) {
      setError(tCommon(COMPANY_REGISTRY_ERROR));
      return;
    }
    setError(undefined);
    if (company?.registry === number) {
      request.mutate(number, { onError: (failure) => setError(userMessage(failure)) });
      return;
    }
    lookUp.mutate(number, { onSuccess: setCompany, onError: (failure) => setError(userMessage(failure)) });
  };
  const busy = request.isPending || lookUp.isPending;

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
            onChange={(event) => {
              setRegistry(event.target.value.replace(/\D/g, ''));
              setCompany(null);
            }}
          />
          <span id={`${id}-error`} className="field__error">
            {error ?? ''}
          </span>
        </div>
        <p role="status">{company ? t('company-found', { name: company.name }) : ''}</p>
        <button type="submit" className="button button--ghost" disabled={busy} aria-busy={busy}>
          {request.isPending
            ? t('company-submitting')
            : company
              ? t('company-confirm', { name: company.name })
              : t('company-find')}
        </button>
      </form>
    </details>
  );
}
