import { RESEND_COUNTDOWN_SECONDS } from '@tunes/shared/constants';
import { useTranslation } from 'react-i18next';
import { requestOtp } from '../api/otp';
import { EmailAddressForm } from './email-address-form';

interface Props {
  /** The code went out (or was already sent): verify next, resend after `resendIn` seconds. */
  onCodeSent(email: string, resendIn: number): void;
  onBack(): void;
}

/** Create an account, step 1 (product.md §2): the e-mail address that receives a code. */
export function CreateAccountForm({ onCodeSent, onBack }: Props) {
  const { t, i18n } = useTranslation('accounts');
  return (
    <EmailAddressForm
      id="create-email"
      intro={t('email.create-intro')}
      submitLabel={t('email.request-code')}
      onBack={onBack}
      onSubmit={async (email) => {
        const { resendIn } = await requestOtp({ email }, i18n.language, {
          resendIn: RESEND_COUNTDOWN_SECONDS,
        });
        onCodeSent(email, resendIn);
      }}
    />
  );
}
