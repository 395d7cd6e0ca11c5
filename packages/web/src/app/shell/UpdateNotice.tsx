import { Button, Group, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTIFICATION_PERSISTENT_TIMEOUT_MS, UPDATE_NOTICE_POSITION } from '@nemuri/shared/constants';
import { iconSize } from '../../lib/icons.ts';
import { notify } from '../../lib/notify.ts';
import type { ServiceWorkerHandle } from './serviceWorker.ts';

const UPDATE_NOTICE_ID = 'app-update-available';

/** Registers the service worker and, when a new version waits, offers 「更新」 at the top. */
export function UpdateNotice() {
  const { t } = useTranslation();

  useEffect(() => {
    if (!import.meta.env.PROD) return;
    const showUpdateNotice = ({ activateUpdate }: ServiceWorkerHandle) =>
      notify({
        id: UPDATE_NOTICE_ID,
        position: UPDATE_NOTICE_POSITION,
        timeout: NOTIFICATION_PERSISTENT_TIMEOUT_MS,
        withCloseButton: false,
        color: 'blue',
        icon: <IconRefresh size={iconSize('xs')} />,
        message: (
          <Group justify="space-between" wrap="nowrap" gap="sm">
            <Text size="sm">{t('notices.updateAvailable')}</Text>
            <Button size="xs" onClick={activateUpdate}>
              {t('notices.update')}
            </Button>
          </Group>
        ),
      });
    // The worker's client library (workbox-window) loads after the first page, not with it.
    import('./serviceWorker.ts')
      .then(({ registerServiceWorker }) => registerServiceWorker(showUpdateNotice))
      .catch((error: unknown) => console.error('[sw] registration failed', error));
    // Registration happens once per page load; the language at that moment labels the notice.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return null;
}
