import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { useState } from 'react';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { DEFAULT_COLOR_SCHEME, NOTIFICATION_DEFAULT_POSITION, NOTIFICATION_DEFAULT_TIMEOUT_MS } from '@nemuri/shared/constants';
import { autoCloseOf } from '../lib/notify.ts';
import { buildRoutes } from './routes.tsx';
import { colorSchemeManager, theme } from './theme.ts';

export function App() {
  const [router] = useState(() => createBrowserRouter(buildRoutes()));
  return (
    <MantineProvider theme={theme} defaultColorScheme={DEFAULT_COLOR_SCHEME} colorSchemeManager={colorSchemeManager}>
      <Notifications position={NOTIFICATION_DEFAULT_POSITION} autoClose={autoCloseOf(NOTIFICATION_DEFAULT_TIMEOUT_MS)} />
      <RouterProvider router={router} />
    </MantineProvider>
  );
}
