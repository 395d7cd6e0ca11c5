import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { AccessLevel } from '@nemuri/shared/roles';
import type { SignedInUser } from '@nemuri/shared/user';
import { buildRoutes } from '../app/routes.tsx';
import { theme } from '../app/theme.ts';
import { initTranslations } from '../lib/i18n.ts';
import { setCurrentUser } from '../lib/session.ts';

export function userAtLevel(accessLevel: AccessLevel): SignedInUser {
  return {
    uid: `user-${accessLevel}`,
    displayName: `テスト ${accessLevel}`,
    email: `level${accessLevel}@example.com`,
    phoneNumber: null,
    photoURL: null,
    providerId: 'email',
    isEmailVerified: true,
    isAnonymous: false,
    loginProviders: [{ provider: 'email', uid: `level${accessLevel}@example.com` }],
    accessLevel,
    domainId: 'domain-1',
    rootDomainId: 'root-1',
    singleTimeToken: null,
    mfas: [],
    signInTime: '2026-11-22T00:00:00.000Z',
    secondFactorRequired: false,
  };
}

/** Renders the real route tree at `path` for `user` (null: signed out), in Japanese. */
export async function renderRoute(path: string, user: SignedInUser | null) {
  await initTranslations('ja');
  setCurrentUser(user);
  const router = createMemoryRouter(buildRoutes(), { initialEntries: [path] });
  const view = render(
    <MantineProvider theme={theme} defaultColorScheme="dark">
      <Notifications />
      <RouterProvider router={router} />
    </MantineProvider>,
  );
  return { router, ...view };
}
