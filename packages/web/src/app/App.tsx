import './mantineStyles.css';
import { MantineProvider } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { DEFAULT_COLOR_SCHEME, NOTIFICATION_DEFAULT_POSITION, NOTIFICATION_DEFAULT_TIMEOUT_MS } from '@nemuri/shared/constants';
import { autoCloseOf } from '../lib/notify.ts';
import { colorSchemeManager, theme } from './theme.ts';

// Loaded after the first page, like lib/notify.ts's calls: the sign-in page shows no notification.
const Notifications = lazy(async () => ({ default: (await import('@mantine/notifications')).Notifications }));

interface AppProps {
  /** Made by the entry before start-up finishes, so the first screen's code is already on its way. */
  router: ReturnType<typeof createBrowserRouter>;
}

export function App({ router }: AppProps) {
  return (
    <MantineProvider theme={theme} defaultColorScheme={DEFAULT_COLOR_SCHEME} colorSchemeManager={colorSchemeManager}>
      <Suspense fallback={null}>
        <Notifications position={NOTIFICATION_DEFAULT_POSITION} autoClose={autoCloseOf(NOTIFICATION_DEFAULT_TIMEOUT_MS)} />
      </Suspense>
      <RouterProvider router={router} />
    </MantineProvider>
  );
}
