import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { forgotPassword } from '../api/passwords';
import { EmailAddressForm } from './email-address-form';

/** Forgot password (product.md §2): on success a toast and back to the login form. */
export function ForgotPasswordForm({ onDone }: { onDone(): void }) {
  const { t } = useTranslation('accounts');
  return (
    <EmailAddressForm
      id="forgot-email"
      intro={t('email.forgot-intro')}
      submitLabel={t('email.send-link')}
      onBack={onDone}
      onSubmit={async (email) => {
        await forgotPassword(email);
        toast.success(t('messages.forgot-success'));
        onDone();
      }}
    />
  );
}
