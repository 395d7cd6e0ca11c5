import { IconWifiOff } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTIFICATION_PERSISTENT_TIMEOUT_MS } from '@nemuri/shared/constants';
import { iconSize } from '../../lib/icons.ts';
import { hideNotification, notify } from '../../lib/notify.ts';

const OFFLINE_NOTICE_ID = 'connectivity-offline';

/** Shows a persistent red notice at the bottom while the browser is offline (specification section 1). */
export function ConnectivityNotice() {
  const { t } = useTranslation();

  useEffect(() => {
    const showOffline = () =>
      notify({
        id: OFFLINE_NOTICE_ID,
        color: 'red',
        icon: <IconWifiOff size={iconSize('xs')} />,
        message: t('notices.offline'),
        timeout: NOTIFICATION_PERSISTENT_TIMEOUT_MS,
        withCloseButton: false,
      });
    const hideOffline = () => hideNotification(OFFLINE_NOTICE_ID);

    if (!navigator.onLine) showOffline();
    window.addEventListener('offline', showOffline);
    window.addEventListener('online', hideOffline);
    return () => {
      window.removeEventListener('offline', showOffline);
      window.removeEventListener('online', hideOffline);
      hideOffline();
    };
  }, [t]);

  return null;
}
