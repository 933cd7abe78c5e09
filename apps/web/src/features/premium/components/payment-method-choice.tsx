import type { PaymentMethod } from '@tunes/shared/billing';
import { useTranslation } from 'react-i18next';
import type { ValidationKey } from '@/lib/i18n';
import styles from './qpay.module.css';

export interface PaymentChoice {
  method: PaymentMethod;
  /** Whether the listener wants a company e-barimt, and the company's registry number. */
  company: boolean;
  registry: string;
}

interface PaymentMethodChoiceProps {
  value: PaymentChoice;
  onChange: (value: PaymentChoice) => void;
  /** The registry number's validation message (a key of common's `validation`). */
  registryError?: ValidationKey | undefined;
}

/**
 * How the listener pays (product.md §12): a bank card or QPay; and, for either, an e-barimt in a
 * company's name by its registry number.
 */
export function PaymentMethodChoice({ value, onChange, registryError }: PaymentMethodChoiceProps) {
  const { t } = useTranslation('premium');
  const { t: tCommon } = useTranslation('common');
  const set = (change: Partial<PaymentChoice>) => onChange({ ...value, ...change });
  const methods = [
    { id: 'card', name: t('method.card'), hint: t('method.card-hint') },
    { id: 'qpay', name: t('method.qpay'), hint: t('method.qpay-hint') },
  ] as const;
  return (
    <fieldset className={`card ${styles.methods}`}>
      <legend>{t('method.legend')}</legend>
      <div className={styles.methodOptions}>
        {methods.map((method) => (
          <label key={method.id} className={styles.method}>
            <input
              type="radio"
              name="payment-method"
              value={method.id}
              checked={value.method === method.id}
              onChange={() => set({ method: method.id })}
            />
            <span>
              <span className={styles.methodName}>{method.name}</span>
              <span className={styles.methodHint}>{method.hint}</span>
            </span>
          </label>
        ))}
      </div>
      <div className={styles.company}>
        <label>
          <input
            type="checkbox"
            checked={value.company}
            onChange={(event) => set({ company: event.target.checked })}
          />
          {t('method.company')}
        </label>
        {value.company && (
          <div className="field">
            <label className="field__label" htmlFor="company-registry">
              {t('method.registry')}
            </label>
            <input
              id="company-registry"
              className="input"
              inputMode="numeric"
              autoComplete="off"
              maxLength={7}
              value={value.registry}
              aria-describedby="company-registry-hint company-registry-error"
              aria-invalid={Boolean(registryError)}
              onChange={(event) => set({ registry: event.target.value.replace(/\D/g, '') })}
            />
            <span id="company-registry-hint" className={styles.methodHint}>
              {t('method.registry-hint')}
            </span>
            <span id="company-registry-error" className="field__error">
              {registryError ? tCommon(registryError) : ''}
            </span>
          </div>
        )}
      </div>
    </fieldset>
  );
}
