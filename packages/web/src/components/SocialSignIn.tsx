import { Alert, Button, Divider, Stack } from '@mantine/core';
import { IconAlertCircle, IconBrandGoogle, IconMessageCircle } from '@tabler/icons-react';
import type { SocialProviderId } from '@nemuri/shared/appInfo';
import { useTranslation } from 'react-i18next';
import { signInWithProvider } from '../lib/authClient.ts';
import { useAppInfo } from '../lib/appInfo.ts';
import { iconSize } from '../lib/icons.ts';
import { useAuthAction } from '../lib/useAuthAction.ts';

export const PROVIDER_ICONS: Record<SocialProviderId, typeof IconBrandGoogle> = { google: IconBrandGoogle, line: IconMessageCircle };

/** "Sign in with Google / LINE", for the providers this installation offers; nothing when none. */
export function SocialSignIn({ redirectTo }: { redirectTo: string }) {
  const { t } = useTranslation();
  const providers = useAppInfo()?.socialProviders ?? [];
  const { pending, error, run } = useAuthAction();
  if (providers.length === 0) return null;
  return (
    <Stack gap="sm">
      <Divider label={t('auth.social.or')} labelPosition="center" />
      {error ? (
        <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
          {error}
        </Alert>
      ) : null}
      {providers.map((provider) => {
        const Icon = PROVIDER_ICONS[provider];
        return (
          <Button
            key={provider}
            variant="default"
            fullWidth
            loading={pending}
            leftSection={<Icon size={iconSize('sm')} aria-hidden />}
            onClick={() => void run(() => signInWithProvider(provider, redirectTo))}
          >
            {t(`auth.social.signInWith.${provider}`)}
          </Button>
        );
      })}
    </Stack>
  );
}
