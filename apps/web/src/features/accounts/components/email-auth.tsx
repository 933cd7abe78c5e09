import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TranslationKey } from '@/lib/i18n';
import { CreateAccountForm } from './create-account-form';
import { EmailLoginForm } from './email-login-form';
import { FinishAccountForm } from './finish-account-form';
import { ForgotPasswordForm } from './forgot-password-form';
import styles from './login-modal.module.css';
import { VerifyEmailForm } from './verify-email-form';

type Step =
  | { name: 'login' }
  | { name: 'forgot' }
  | { name: 'create' }
  | { name: 'verify'; email: string; resendIn: number }
  | { name: 'finish'; email: string; otp: string };

const TITLES: Record<Step['name'], TranslationKey<'accounts'> | null> = {
  login: null,
  forgot: 'email.forgot-title',
  create: 'email.create-title',
  verify: 'email.verify-title',
  finish: 'email.finish-title',
};

/**
 * The e-mail chain of product.md §2: login ↔ forgot password; create account → verify code → finish
 * account → automatic login.
 */
export function EmailAuth({ onSignedIn }: { onSignedIn(): void }) {
  const { t } = useTranslation('accounts');
  const [step, setStep] = useState<Step>({ name: 'login' });
  const title = TITLES[step.name];
  const toLogin = () => setStep({ name: 'login' });

  return (
    <div>
      {title && <h3 className={styles.stepTitle}>{t(title)}</h3>}
      {step.name === 'login' && (
        <EmailLoginForm
          onSignedIn={onSignedIn}
          onForgot={() => setStep({ name: 'forgot' })}
          onCreate={() => setStep({ name: 'create' })}
        />
      )}
      {step.name === 'forgot' && <ForgotPasswordForm onDone={toLogin} />}
      {step.name === 'create' && (
        <CreateAccountForm
          onBack={toLogin}
          onCodeSent={(email, resendIn) => setStep({ name: 'verify', email, resendIn })}
        />
      )}
      {step.name === 'verify' && (
        <VerifyEmailForm
          email={step.email}
          resendIn={step.resendIn}
          onVerified={(otp) => setStep({ name: 'finish', email: step.email, otp })}
        />
      )}
      {step.name === 'finish' && (
        <FinishAccountForm email={step.email} otp={step.otp} onSignedIn={onSignedIn} />
      )}
    </div>
  );
}
