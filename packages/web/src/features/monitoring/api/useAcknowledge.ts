import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DocumentError } from '@nemuri/shared/documents/errors';
import { documents } from '../../../lib/documents/documents.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import type { AlertRecord } from './stationAlerts.ts';

/**
 * Acknowledges an alert as the signed-in nurse: the server records who (it must be the caller) and
 * when (its own clock), and only the alert's facility staff may. A colleague who acknowledged it
 * first keeps it (`failed-precondition`): the live list then shows their name, which is no failure.
 */
export function useAcknowledge() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const [acknowledging, setAcknowledging] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Kept the same between renders: the alert list and the banner are not drawn again for it.
  const acknowledge = useCallback(
    async (alert: AlertRecord) => {
      if (user === null) return;
      setAcknowledging(alert.documentReferenceId);
      setError(null);
      try {
        await documents.update(`alerts/${alert.documentReferenceId}`, { acknowledgedBy: user.uid });
      } catch (failure) {
        if (!(failure instanceof DocumentError && failure.code === 'failed-precondition')) setError(t('monitoring.acknowledgeFailed'));
      } finally {
        setAcknowledging(null);
      }
    },
    [user, t],
  );
  return { acknowledging, error, acknowledge };
}
