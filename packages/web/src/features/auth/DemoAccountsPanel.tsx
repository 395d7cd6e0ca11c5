import { Badge, Paper, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import { roleOfLevel } from '@nemuri/shared/roles';
import { useAppInfo } from '../../lib/appInfo.ts';

interface DemoAccountsPanelProps {
  onPick: (email: string, password: string) => void;
}

/** In demo mode, the demo accounts and their shared password, one click to fill the form. */
export function DemoAccountsPanel({ onPick }: DemoAccountsPanelProps) {
  const { t } = useTranslation();
  const demo = useAppInfo()?.demo === true;
  if (!demo) return null;
  return (
    <Paper withBorder radius="md" p="md" data-testid="demo-accounts">
      <Stack gap="xs">
        <Text fw={600}>{t('auth.demo.title')}</Text>
        <Text size="sm" c="dimmed">
          {t('auth.demo.hint', { password: DEMO_PASSWORD })}
        </Text>
        <Table verticalSpacing={4} fz="sm" highlightOnHover>
          <Table.Tbody>
            {DEMO_ACCOUNTS.map((account) => (
              <Table.Tr key={account.email}>
                <Table.Td>
                  <UnstyledButton onClick={() => onPick(account.email, DEMO_PASSWORD)} fz="sm" aria-label={t('auth.demo.use', { email: account.email })}>
                    {account.email}
                  </UnstyledButton>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" size="sm">
                    {account.email === 'mfa@example.com' ? t('auth.demo.mfa') : t(`roles.${roleOfLevel(account.accessLevel)}`)}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}
