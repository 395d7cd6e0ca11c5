import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { documents } from '../../../lib/documents/documents.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import type { AlertRecord } from './stationAlerts.ts';

/** Records who acknowledged an alert and when (the server checks the level and the facility). */
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
        await documents.update(`alerts/${alert.documentReferenceId}`, { acknowledgedBy: user.uid, acknowledgedAt: new Date().toISOString() });
      } catch {
        setError(t('monitoring.acknowledgeFailed'));
      } finally {
        setAcknowledging(null);
      }
    },
    [user, t],
  );
  return { acknowledging, error, acknowledge };
}
