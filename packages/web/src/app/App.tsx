import './mantineStyles.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import type { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { DEFAULT_COLOR_SCHEME, NOTIFICATION_DEFAULT_POSITION, NOTIFICATION_DEFAULT_TIMEOUT_MS } from '@nemuri/shared/constants';
import { autoCloseOf } from '../lib/notify.ts';
import { colorSchemeManager, theme } from './theme.ts';

interface AppProps {
  /** Made by the entry before start-up finishes, so the first screen's code is already on its way. */
  router: ReturnType<typeof createBrowserRouter>;
}

export function App({ router }: AppProps) {
  return (
    <MantineProvider theme={theme} defaultColorScheme={DEFAULT_COLOR_SCHEME} colorSchemeManager={colorSchemeManager}>
      <Notifications position={NOTIFICATION_DEFAULT_POSITION} autoClose={autoCloseOf(NOTIFICATION_DEFAULT_TIMEOUT_MS)} />
      <RouterProvider router={router} />
    </MantineProvider>
  );
}
