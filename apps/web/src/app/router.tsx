import { lazy, useEffect } from 'react';
import { Route, Switch, useLocation } from 'wouter';

/** Every route of spec §2, each its own chunk so a page loads only its own code. */
const LandingPage = lazy(() => import('./routes/landing'));
const PremiumPage = lazy(() => import('./routes/premium'));
const InvitePage = lazy(() => import('./routes/invite'));
const ProfilePage = lazy(() => import('./routes/profile'));
const ProfileEditPage = lazy(() => import('./routes/profile-edit'));
const SuccessPage = lazy(() => import('./routes/success'));
const FailedPage = lazy(() => import('./routes/failed'));
const FaqPage = lazy(() => import('./routes/faq'));
const TermsPage = lazy(() => import('./routes/terms'));
const LoginPage = lazy(() => import('./routes/login'));
const ContactPage = lazy(() => import('./routes/contact'));
const PhoneAuthPage = lazy(() => import('./routes/phone-auth'));
const ResetPasswordPage = lazy(() => import('./routes/reset-password'));
const NotFoundPage = lazy(() => import('./routes/not-found'));

/** Spec §2: every route change scrolls to the top. */
function ScrollToTop() {
  const [location] = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each location change by design.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location]);
  return null;
}

export function AppRoutes() {
  return (
    <>
      <ScrollToTop />
      <Switch>
        <Route path="/" component={LandingPage} />
        <Route path="/premium" component={PremiumPage} />
        <Route path="/invite" component={InvitePage} />
        <Route path="/profile" component={ProfilePage} />
        <Route path="/profile-edit" component={ProfileEditPage} />
        <Route path="/success" component={SuccessPage} />
        <Route path="/failed" component={FailedPage} />
        <Route path="/help" component={FaqPage} />
        <Route path="/help/faq" component={FaqPage} />
        <Route path="/help/tos" component={TermsPage} />
        <Route path="/login" component={LoginPage} />
        <Route path="/contact" component={ContactPage} />
        <Route path="/phoneauth" component={PhoneAuthPage} />
        <Route path="/reset-password" component={ResetPasswordPage} />
        <Route component={NotFoundPage} />
      </Switch>
    </>
  );
}
