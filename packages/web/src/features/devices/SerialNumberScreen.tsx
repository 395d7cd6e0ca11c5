import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { iconSize } from '../../lib/icons.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { findRoomOfDevice } from './api/deviceQueries.ts';
import { SERIAL_PATTERN } from './deviceConfigRows.ts';
import { serialNumberTarget } from './deviceConfigSerialTarget.ts';

/**
 * A device label's QR code (/sn/:value): finds the device's room among the rooms the user may see
 * (the server answers only those) and goes on as serialNumberTarget says.
 */
export default function SerialNumberScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { value = '' } = useParams();
  const user = useCurrentUser();
  const accessLevel = user?.accessLevel ?? 0;
  const valid = SERIAL_PATTERN.test(value);
  /** The value whose lookup failed. */
  const [failedFor, setFailedFor] = useState<{ value: string; why: 'failed' | 'notVisible' } | null>(null);
  const problem = !valid ? 'invalid' : failedFor?.value === value ? failedFor.why : null;

  useEffect(() => {
    if (!valid) return undefined;
    let current = true;
    findRoomOfDevice(value).then(
      (room) => {
        if (!current) return;
        const target = serialNumberTarget(value, accessLevel, room?.documentReferenceId ?? null);
        if (target.kind === 'go') void navigate(target.to, { replace: true });
        else if (target.kind === 'notVisible') setFailedFor({ value, why: 'notVisible' });
      },
      () => {
        if (current) setFailedFor({ value, why: 'failed' });
      },
    );
    return () => {
      current = false;
    };
  }, [valid, value, accessLevel, navigate]);

  return (
    <ScreenPage>
      {problem === null ? (
        <Group gap="sm" p="lg" role="status">
          <Loader size="sm" aria-hidden />
          <Text>{t('deviceConfig.serialNumber.resolving', { serial: value })}</Text>
        </Group>
      ) : (
        <Stack gap="sm" align="flex-start">
          <Alert color="red" icon={<IconAlertCircle size={iconSize('xs')} />} role="alert">
            {problem === 'invalid'
              ? t('deviceConfig.serialNumber.invalid', { value })
              : problem === 'notVisible'
                ? t('deviceConfig.serialNumber.notVisible', { serial: value })
                : t('deviceConfig.serialNumber.failed')}
          </Alert>
          <Button component={Link} to="/" variant="default">
            {t('deviceConfig.serialNumber.home')}
          </Button>
        </Stack>
      )}
    </ScreenPage>
  );
}
