import { Anchor, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { levelOpensRoute } from '@nemuri/shared/routeAccess';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { iconSize } from '../../lib/icons.ts';
import { useCurrentUser } from '../../lib/session.ts';

/** Each next step appears only when the user's level opens its screen. */
const NEXT_STEPS = [
  { key: 'stepRooms', to: '/card', routeName: 'homeCard' },
  { key: 'stepMonitoring', to: '/monitoring', routeName: 'monitoring' },
  { key: 'stepRoomConfig', to: '/room-config/card', routeName: 'roomConfigCard' },
  { key: 'stepReport', to: '/report', routeName: 'report' },
  { key: 'stepDomainConfig', to: '/domain-config', routeName: 'domainConfig' },
  { key: 'stepAgency', to: '/agency/devices', routeName: 'agencyDevices' },
  { key: 'stepMaster', to: '/master', routeName: 'masterHome' },
  { key: 'stepHelp', to: '/help', routeName: 'help' },
] as const;

/** The blank home: a welcome panel with the user's next steps. */
export default function HomeScreen() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const name = user?.displayName ?? user?.email;
  const steps = NEXT_STEPS.filter((step) => user && levelOpensRoute(user.accessLevel, step.routeName));

  return (
    <ScreenPage title={name ? t('home.welcome', { name }) : t('home.welcomeAnonymous')}>
      <Paper withBorder radius="md" p="lg" maw={720}>
        <Stack gap="sm">
          <Text>{t('home.intro')}</Text>
          <Title order={3} size="h4">
            {t('home.nextSteps')}
          </Title>
          <List
            spacing="xs"
            icon={
              <ThemeIcon size={iconSize('xs')} radius="xl" variant="light">
                <IconArrowRight size={12} />
              </ThemeIcon>
            }
          >
            {steps.map((step) => (
              <List.Item key={step.key}>
                <Anchor component={Link} to={step.to}>
                  {t(`home.${step.key}`)}
                </Anchor>
              </List.Item>
            ))}
          </List>
        </Stack>
      </Paper>
    </ScreenPage>
  );
}
