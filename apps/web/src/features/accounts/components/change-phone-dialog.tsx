import { MONGOLIA_DIAL_CODE } from '@tunes/shared/constants';
import { formatPhoneForDisplay } from '@tunes/shared/phone-number';
import { dialCodeOfMsisdn, isValidPhone } from '@tunes/shared/phone-rules';
import type { Profile } from '@tunes/shared/profile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/dialog';
import { FormError, FormField } from '@/components/form-field';
import { userMessage } from '@/lib/api-error';
import type { ValidationKey } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useConfirmPhoneChange, useRequestPhoneChange, useWithdrawPhoneChange } from '../api/change-phone';
import { CodeStep } from './code-step';
import { CountryCodeSelect } from './country-code-select';
import loginStyles from './login-modal.module.css';
import styles from './self-service.module.css';

interface Props {
  profile: Profile;
  open: boolean;
  onClose(): void;
}

/**
 * Changing the phone number from /profile (security.md): the new number is texted a code and
 * counts only once the code is entered; the old number is told. A change already waiting opens
 * at its code.
 */
export function ChangePhoneDialog({ profile, open, onClose }: Props) {
  const { t } = useTranslation('accounts');
  return (
    <Dialog open={open} title={t('change.phone-title')} onClose={onClose}>
      <ChangePhone profile={profile} onDone={onClose} />
    </Dialog>
  );
}

/** A full number ("97688112233") as the form's country code and national number. */
function split(msisdn: string) {
  const countryCode = dialCodeOfMsisdn(msisdn) ?? Number(MONGOLIA_DIAL_CODE);
  return { CountryCode: countryCode, PhoneNumber: msisdn.slice(String(countryCode).length) };
}

function ChangePhone({ profile, onDone }: { profile: Profile; onDone(): void }) {
  const { t } = useTranslation('accounts');
  const request = useRequestPhoneChange();
  const confirm = useConfirmPhoneChange();
  const withdraw = useWithdrawPhoneChange();
  const [countryCode, setCountryCode] = useState(Number(MONGOLIA_DIAL_CODE));
  const [phoneNumber, setPhoneNumber] = useState('');
  const [invalid, setInvalid] = useState<ValidationKey | undefined>();
  const [failure, setFailure] = useState('');
  const pending = profile.PendingPhone;

  if (pending) {
    return (
      <CodeStep
        sentText={t('change.code-sent-phone', { target: formatPhoneForDisplay(pending) })}
        onConfirm={async (code) => {
          await confirm.mutateAsync(code);
          toast.success(t('change.phone-changed'));
          onDone();
        }}
        onResend={() => request.mutateAsync(split(pending))}
        onWithdraw={async () => {
          await withdraw.mutateAsync();
          onDone();
        }}
      />
    );
  }

  const submit = async () => {
    setFailure('');
    const number = phoneNumber.trim();
    if (!isValidPhone(countryCode, number)) {
      setInvalid('validation.cant-authenticate-mobile');
      return;
    }
    setInvalid(undefined);
    try {
      await request.mutateAsync({ CountryCode: countryCode, PhoneNumber: number });
    } catch (error) {
      setFailure(userMessage(error));
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <p className={styles.intro}>{t('change.phone-intro')}</p>
      <FormField id="change-phone" label={t('change.new-phone')} error={invalid}>
        {(control) => (
          <div className={loginStyles.phoneRow}>
            <CountryCodeSelect value={countryCode} onChange={setCountryCode} />
            <input
              {...control}
              data-autofocus
              className="input"
              type="tel"
              inputMode="numeric"
              autoComplete="tel-national"
              maxLength={15}
              value={phoneNumber}
              onChange={(event) => setPhoneNumber(event.target.value)}
            />
          </div>
        )}
      </FormField>
      {failure && <FormError>{failure}</FormError>}
      <div className={styles.actions}>
        <button type="submit" className="button button--primary" disabled={request.isPending}>
          {t('change.send-code')}
        </button>
      </div>
    </form>
  );
}
