import { SilentLogin } from '@/features/accounts/components/silent-login';
import { PremiumPage } from '@/features/premium/components/premium-page';

/** /premium: silent login from the query (accounts), then the plans (premium). */
export default function PremiumRoute() {
  return (
    <>
      <SilentLogin />
      <PremiumPage />
    </>
  );
}
