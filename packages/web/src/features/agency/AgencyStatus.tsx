import { Alert, Group, Loader } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { iconSize } from '../../lib/icons.ts';

/** A part of the agency area that cannot show what it is for, and says why. */
export function Failure({ message }: { message: string }) {
  return (
    <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
      {message}
    </Alert>
  );
}

/** A part of the agency area still loading. */
export function Loading({ label }: { label: string }) {
  return (
    <Group justify="center" p="xl">
      <Loader aria-label={label} />
    </Group>
  );
}
