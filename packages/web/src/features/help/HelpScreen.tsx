import { Accordion, Badge, Button, Group, List, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { APP_VERSION } from '@nemuri/shared/version';
import { ScreenPage } from '../../components/ScreenPage.tsx';
import { formatDate } from '../../lib/dates.ts';
import { iconSize } from '../../lib/icons.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { searchTopics, topicsForLevel, topicText, type HelpTopic } from './helpTopics.ts';
import { newestRelease } from '../../lib/releaseNote.ts';
import { useLatestReleases } from './api/releases.ts';

/** /help: how-to pages for the areas the user's level opens, search, the version and the newest release note. */
export default function HelpScreen() {
  const { t, i18n } = useTranslation();
  const user = useCurrentUser();
  const [query, setQuery] = useState('');
  const [opened, setOpened] = useState<string[]>([]);
  const level = user?.accessLevel ?? 0;
  const topics = useMemo(() => topicsForLevel(level), [level]);
  // The on-screen names of states and alerts are searchable too, in the language shown.
  const search = (text: string) =>
    searchTopics(topics, text, (topic) =>
      topicText(topic, [
        ...(topic.states ?? []).map(([state]) => t(`rooms.states.${state}`)),
        ...(topic.alerts ?? []).map(([alert]) => t(`monitoring.alertTypes.${alert}`)),
      ]),
    );
  const found = search(query);
  const changeQuery = (text: string) => {
    setQuery(text);
    // A search opens what it found; clearing it folds everything again.
    setOpened(text.trim() === '' ? [] : search(text).map((topic) => topic.id));
  };

  return (
    <ScreenPage>
      <Stack gap="md" maw={860}>
        <AboutPanel />
        <Paper withBorder radius="md" p="lg">
          <Stack gap="sm">
            <Text>{t('help.intro')}</Text>
            {i18n.language.startsWith('ja') ? null : (
              <Text size="sm" c="dimmed">
                {t('help.japaneseOnly')}
              </Text>
            )}
            <TextInput
              type="search"
              label={t('help.search')}
              placeholder={t('help.searchPlaceholder')}
              leftSection={<IconSearch size={iconSize('sm')} aria-hidden />}
              value={query}
              onChange={(event) => changeQuery(event.currentTarget.value)}
            />
            <Text size="xs" c="dimmed" aria-live="polite" data-testid="help-count">
              {t('help.count', { count: found.length })}
            </Text>
          </Stack>
        </Paper>
        {found.length === 0 ? (
          <Text c="dimmed">{t('help.noMatch')}</Text>
        ) : (
          <Accordion multiple variant="separated" radius="md" value={opened} onChange={setOpened}>
            {found.map((topic) => (
              <TopicItem key={topic.id} topic={topic} />
            ))}
          </Accordion>
        )}
      </Stack>
    </ScreenPage>
  );
}

function AboutPanel() {
  const { t } = useTranslation();
  const releases = useLatestReleases();
  const newest = newestRelease(releases.data);
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-label={t('help.about')}>
      <Stack gap="xs">
        <Group gap="xs">
          <Text c="dimmed">{t('help.versionLabel')}</Text>
          <Badge variant="light" data-testid="help-version">
            {APP_VERSION}
          </Badge>
        </Group>
        {newest === null ? (
          releases.loading ? null : (
            <Text size="sm" c="dimmed">
              {t('help.noRelease')}
            </Text>
          )
        ) : (
          <Stack gap={4} data-testid="help-release">
            <Title order={3} size="h6">
              {t('help.newestRelease', { version: newest.version, date: formatDate(newest.date) })}
            </Title>
            <Text fw={500}>{newest.title}</Text>
            <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
              {newest.body}
            </Text>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

function TopicItem({ topic }: { topic: HelpTopic }) {
  const { t } = useTranslation();
  return (
    <Accordion.Item value={topic.id} data-testid={`help-topic-${topic.id}`}>
      <Accordion.Control>
        <Stack gap={2}>
          <Text fw={600}>{topic.title}</Text>
          <Text size="sm" c="dimmed">
            {topic.summary}
          </Text>
        </Stack>
      </Accordion.Control>
      <Accordion.Panel>
        <Stack gap="md">
          {topic.sections.map((section) => (
            <Stack key={section.heading} gap={4}>
              <Title order={4} size="h6">
                {section.heading}
              </Title>
              {section.text ? <Text size="sm">{section.text}</Text> : null}
              {section.steps ? (
                <List type="ordered" size="sm" spacing={2}>
                  {section.steps.map((step) => (
                    <List.Item key={step}>{step}</List.Item>
                  ))}
                </List>
              ) : null}
              {section.terms ? <TermTable rows={section.terms} /> : null}
            </Stack>
          ))}
          {topic.states ? (
            <Stack gap={4}>
              <Title order={4} size="h6">
                {t('help.statesHeading')}
              </Title>
              <TermTable rows={topic.states.map(([state, meaning]) => [t(`rooms.states.${state}`), meaning] as const)} />
            </Stack>
          ) : null}
          {topic.alerts ? (
            <Stack gap={4}>
              <Title order={4} size="h6">
                {t('help.alertsHeading')}
              </Title>
              <TermTable rows={topic.alerts.map(([alert, meaning]) => [t(`monitoring.alertTypes.${alert}`), meaning] as const)} />
            </Stack>
          ) : null}
          <Group>
            <Button component={Link} to={topic.path} variant="light" size="xs">
              {t('help.open', { screen: topic.title })}
            </Button>
          </Group>
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}

function TermTable({ rows }: { rows: readonly (readonly [string, string])[] }) {
  return (
    <Table withRowBorders={false} verticalSpacing={4} fz="sm">
      <Table.Tbody>
        {rows.map(([term, meaning]) => (
          <Table.Tr key={term}>
            <Table.Th w="30%" style={{ whiteSpace: 'nowrap' }}>
              {term}
            </Table.Th>
            <Table.Td>{meaning}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
