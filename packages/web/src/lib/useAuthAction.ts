import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { authErrorMessage } from './authErrorMessage.ts';

/**
 * The pending flag and the Japanese error of one sign-in step (sign-in, sign-up, second factor,
 * anonymous): every auth form runs its request through this.
 */
export function useAuthAction() {
  const { t } = useTranslation();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const run = async (action: () => Promise<void>): Promise<void> => {
    setPending(true);
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(authErrorMessage(t, caught));
    } finally {
      setPending(false);
    }
  };

  return { pending, error, run };
}
