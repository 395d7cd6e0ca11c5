import { Badge, Group, List, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { APP_VERSION } from '@nemuri/shared/version';
import { ScreenPage } from '../../components/ScreenPage.tsx';

const TOPICS = ['rooms', 'monitoring', 'import', 'report', 'config', 'account'] as const;

/** Help home: how-to topics per area and the version label. */
export default function HelpScreen() {
  const { t } = useTranslation();
  return (
    <ScreenPage>
      <Stack gap="md" maw={760}>
        <Group gap="xs">
          <Text c="dimmed">{t('help.versionLabel')}</Text>
          <Badge variant="light" data-testid="help-version">
            {APP_VERSION}
          </Badge>
        </Group>
        <Paper withBorder radius="md" p="lg">
          <Text mb="sm">{t('help.intro')}</Text>
          <List spacing="sm">
            {TOPICS.map((topic) => (
              <List.Item key={topic}>{t(`help.topics.${topic}`)}</List.Item>
            ))}
          </List>
        </Paper>
      </Stack>
    </ScreenPage>
  );
}
