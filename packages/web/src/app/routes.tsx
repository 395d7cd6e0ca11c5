import { Navigate, type RouteObject } from 'react-router';
import { MAIN_ROUTES, PLAIN_ROUTES, type RouteSpec } from '@nemuri/shared/routeAccess';
import { PageLoader } from '../components/PageLoader.tsx';
import { PlainLayout } from './layouts/PlainLayout.tsx';
import { NotFoundScreen } from './NotFoundScreen.tsx';
import { RootShell } from './RootShell.tsx';
import { RouteErrorScreen } from './RouteErrorScreen.tsx';
import type { RouteHandle } from '../lib/routeHandle.ts';
import { FIRST_PAGE_SCREENS, SCREENS } from './screens.ts';
import { allTranslations } from '../lib/i18n.ts';

function toRouteObject(spec: RouteSpec): RouteObject {
  const handle: RouteHandle = { routeName: spec.name };
  if (spec.redirectTo) return { index: true, handle, element: <Navigate to={spec.redirectTo} replace /> };

  const loadScreen = SCREENS[spec.name];
  // Every screen but the first page's waits for the rest of the translations with its code.
  const translated = FIRST_PAGE_SCREENS.has(spec.name) ? () => undefined : allTranslations;
  const lazy = loadScreen ? async () => ({ Component: (await Promise.all([loadScreen(), translated()]))[0].default }) : undefined;
  if (spec.path === '' && !spec.children) return { index: true, handle, lazy };
  return {
    path: spec.path === '' ? undefined : spec.path,
    handle,
    ...(lazy ? { lazy } : {}),
    ...(spec.children ? { children: spec.children.map(toRouteObject) } : {}),
  };
}

/** The whole route tree, generated from the shared route access table. */
export function buildRoutes(): RouteObject[] {
  return [
    {
      element: <RootShell />,
      errorElement: <RouteErrorScreen />,
      HydrateFallback: PageLoader,
      children: [
        {
          // A screen that fails shows its error inside the shell: the offline and update notices
          // stay up (the root's own errorElement only covers the shell itself).
          errorElement: <RouteErrorScreen />,
          children: [
            // The signed-in frame (navigation, account menu, release notice) is code of its own: the
            // sign-in page never needs it.
            { lazy: async () => ({ Component: (await import('./layouts/MainLayout.tsx')).MainLayout }), children: MAIN_ROUTES.map(toRouteObject) },
            { element: <PlainLayout />, children: [...PLAIN_ROUTES.map(toRouteObject), { path: '*', element: <NotFoundScreen /> }] },
          ],
        },
      ],
    },
  ];
}
