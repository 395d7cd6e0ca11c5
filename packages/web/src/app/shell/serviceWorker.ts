import { Workbox } from 'workbox-window';
import { UPDATE_CHECK_INTERVAL_MS } from '@nemuri/shared/constants';

export interface ServiceWorkerHandle {
  /** Activates the waiting version; the page reloads once it controls the page. */
  activateUpdate: () => void;
}

/**
 * Registers `/sw.js`, checks for a new version on start and every 24 hours, and reports a waiting
 * version (also one that was already waiting before this page loaded).
 */
export function registerServiceWorker(onUpdateWaiting: (handle: ServiceWorkerHandle) => void): void {
  if (!('serviceWorker' in navigator)) return;
  const workbox = new Workbox('/sw.js', { scope: '/' });
  const handle: ServiceWorkerHandle = {
    activateUpdate: () => {
      workbox.addEventListener('controlling', () => window.location.reload());
      workbox.messageSkipWaiting();
    },
  };
  workbox.addEventListener('waiting', () => onUpdateWaiting(handle));

  void workbox
    .register()
    .then((registration) => {
      if (!registration) return;
      const checkForUpdate = () => {
        registration.update().catch((error: unknown) => console.warn('[sw] update check failed', error));
      };
      checkForUpdate();
      window.setInterval(checkForUpdate, UPDATE_CHECK_INTERVAL_MS);
    })
    .catch((error: unknown) => console.error('[sw] registration failed', error));
}
