import { Alert, Group, Loader } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { iconSize } from '../lib/icons.ts';
import { ScreenPage } from './ScreenPage.tsx';

/** A whole screen still loading what it shows. */
export function ScreenLoading({ label }: { label: string }) {
  return (
    <ScreenPage>
      <Group justify="center" p="xl">
        <Loader aria-label={label} />
      </Group>
    </ScreenPage>
  );
}

/** A whole screen that cannot show what it is for, and says why. */
export function ScreenFailure({ message }: { message: string }) {
  return (
    <ScreenPage>
      <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
        {message}
      </Alert>
    </ScreenPage>
  );
}
