import { IconLock } from '@tabler/icons-react';
import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { decideAccess, loginRedirectUrl } from '@nemuri/shared/routeAccess';
import { MessagePanel } from '../../components/MessagePanel.tsx';
import { iconSize } from '../../lib/icons.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useCurrentRoute } from '../../lib/routeHandle.ts';

// Level 0: the domain requires a second factor the user has not enrolled yet. Loaded on demand
// (it brings the QR code renderer).
const SecondFactorEnrolment = lazy(() => import('../../features/auth/SecondFactorEnrolment.tsx'));

/**
 * Applies the route access table to the current user. This only decides what the browser shows;
 * the server enforces the same levels and the data scope on every request.
 */
export function RouteGuard({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const route = useCurrentRoute();
  const location = useLocation();

  if (!route) return children;
  switch (decideAccess(route.access, user)) {
    case 'allow':
      return children;
    case 'signIn':
      return <Navigate to={loginRedirectUrl(`${location.pathname}${location.search}${location.hash}`)} replace />;
    case 'goHome':
      return <Navigate to="/" replace />;
    case 'enrollSecondFactor':
      return (
        <Suspense fallback={null}>
          <SecondFactorEnrolment />
        </Suspense>
      );
    case 'forbidden':
      return (
        <MessagePanel
          icon={<IconLock size={iconSize('lg')} />}
          color="orange"
          title={t('guard.forbidden')}
          body={t('guard.forbiddenHint')}
          action={{ label: t('guard.backHome'), to: '/' }}
        />
      );
  }
}
