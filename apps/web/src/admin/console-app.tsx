import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Toaster } from 'sonner';
import { Redirect, Route, Router, Switch, useLocation } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { IDLE_LIMIT_MS, lastCall, onSessionEnded, sessionEnded } from './api';
import { ConsoleLayout } from './layout';
import { SetupPage } from './pages/setup';
import { SignInPage } from './pages/sign-in';
import {
  consoleQueryClient,
  mayUse,
  meQueryKey,
  type Section,
  sectionPath,
  sectionsOf,
  useMe,
} from './session';

const DashboardPage = lazy(() => import('./pages/dashboard/index'));
const ContentPage = lazy(() => import('./pages/content/index'));
const SupportSearchPage = lazy(() => import('./pages/support/search'));
const SupportUserPage = lazy(() => import('./pages/support/user'));
const SupportReceiptPage = lazy(() => import('./pages/support/receipt'));
const FeedbackPage = lazy(() => import('./pages/feedback/index'));
const PlansPage = lazy(() => import('./pages/plans/index'));
const OffersPage = lazy(() => import('./pages/offers/index'));
const VouchersPage = lazy(() => import('./pages/vouchers/index'));
const OperatorsPage = lazy(() => import('./pages/operators/index'));
const AuditPage = lazy(() => import('./pages/audit'));

/** An ended session (401 or the idle limit): forget everything and ask to sign in again. */
function useSessionEnd() {
  useEffect(
    () =>
      onSessionEnded(() => {
        consoleQueryClient.setQueryData(meQueryKey, null);
        consoleQueryClient.removeQueries({ predicate: (query) => query.queryKey[1] !== 'me' });
        if (
          !location.pathname.startsWith('/admin/sign-in') &&
          !location.pathname.startsWith('/admin/setup')
        ) {
          navigate('/admin/sign-in?expired=1');
        }
      }),
    [],
  );
}

function Loading() {
  const { t } = useTranslation('admin');
  return (
    <p role="status" className="admin-loading">
      {t('loading')}
    </p>
  );
}

function NotAllowed() {
  const { t } = useTranslation('admin');
  return (
    <div className="form-error" role="alert">
      <h1 className="admin-title">{t('not-allowed.title')}</h1>
      <p>{t('not-allowed.text')}</p>
    </div>
  );
}

/** The signed-in console: a page only for the roles that may use its section. */
function SignedIn() {
  const me = useMe();
  const [location] = useLocation();
  const operator = me.data?.operator;
  useEffect(() => {
    if (!operator) return;
    // The server ends a session after 30 minutes without a call; the console says so at once.
    const timer = setInterval(() => {
      if (Date.now() - lastCall() > IDLE_LIMIT_MS) sessionEnded();
    }, 15_000);
    return () => clearInterval(timer);
  }, [operator]);
  if (me.isPending) return <Loading />;
  if (!operator) return <Redirect to={`/sign-in?next=${encodeURIComponent(location)}`} replace />;
  const only = (section: Section, page: ReactNode) =>
    mayUse(operator.role, section) ? page : <NotAllowed />;
  const home = sectionsOf(operator.role)[0] ?? 'support';
  return (
    <ConsoleLayout operator={operator}>
      <Suspense fallback={<Loading />}>
        <Switch>
          <Route path="/">
            <Redirect to={sectionPath(home)} replace />
          </Route>
          <Route path="/dashboard">{only('dashboard', <DashboardPage />)}</Route>
          <Route path="/content">{only('content', <ContentPage />)}</Route>
          <Route path="/support">{only('support', <SupportSearchPage />)}</Route>
          <Route path="/support/users/:id">
            {(params) => only('support', <SupportUserPage userId={params.id} role={operator.role} />)}
          </Route>
          <Route path="/support/users/:id/receipts/:invoiceId">
            {(params) =>
              only('support', <SupportReceiptPage userId={params.id} invoiceId={params.invoiceId} />)
            }
          </Route>
          <Route path="/feedback">{only('feedback', <FeedbackPage />)}</Route>
          <Route path="/plans">{only('plans', <PlansPage />)}</Route>
          <Route path="/offers">{only('offers', <OffersPage />)}</Route>
          <Route path="/vouchers">{only('vouchers', <VouchersPage />)}</Route>
          <Route path="/operators">{only('operators', <OperatorsPage self={operator} />)}</Route>
          <Route path="/audit">{only('audit', <AuditPage />)}</Route>
          <Route>
            <NotAllowed />
          </Route>
        </Switch>
      </Suspense>
    </ConsoleLayout>
  );
}

/** The operator console (DESIGN §9) under `/admin`. */
export function ConsoleApp() {
  useSessionEnd();
  // Marks the page interactive once React has rendered it, as the listener site does (e2e).
  useEffect(() => {
    document.documentElement.dataset.interactive = '';
  }, []);
  return (
    <QueryClientProvider client={consoleQueryClient}>
      <Router base="/admin">
        <Switch>
          <Route path="/setup" component={SetupPage} />
          <Route path="/sign-in" component={SignInPage} />
          <Route>
            <SignedIn />
          </Route>
        </Switch>
      </Router>
      <Toaster position="top-right" closeButton theme="dark" />
    </QueryClientProvider>
  );
}
