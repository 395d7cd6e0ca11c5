/**
 * "What's new" once after an update, at the top of every signed-in page: the newest release note
 * when the app's version differs from the one this browser last ran (releaseNotice.ts). Closing it
 * remembers the running version; a first visit remembers it without showing anything.
 */
import { Alert, Anchor, Text } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { APP_VERSION } from '@nemuri/shared/version';
import { iconSize } from '../../lib/icons.ts';
import { LAST_SEEN_VERSION_KEY, releaseNoticeDecision } from './releaseNotice.ts';
import { useReleaseHistories } from './api/masterQueries.ts';

function readLastSeen(): string | null {
  try {
    return window.localStorage.getItem(LAST_SEEN_VERSION_KEY);
  } catch {
    // Storage can be off (private mode, policy): then there is nothing to compare, and no notice.
    return APP_VERSION;
  }
}

function remember(version: string): void {
  try {
    window.localStorage.setItem(LAST_SEEN_VERSION_KEY, version);
  } catch {
    // Without storage the notice would come back on every load; it was shown once in this page.
  }
}

export function ReleaseNotice() {
  const { t } = useTranslation();
  // Read once per page load: the decision is about this start of the app.
  const [lastSeen] = useState(readLastSeen);
  const [dismissed, setDismissed] = useState(false);
  const updated = lastSeen !== null && lastSeen !== APP_VERSION;
  // Only an updated app needs the notes; every other start reads nothing.
  const releases = useReleaseHistories(updated);
  const ready = !updated || (!releases.loading && releases.error === null);
  const decision = ready
    ? releaseNoticeDecision(
        lastSeen,
        APP_VERSION,
        releases.data.filter((note) => typeof note.version === 'string'),
      )
    : null;
  const toRemember = decision?.remember ?? null;
  useEffect(() => {
    if (toRemember !== null) remember(toRemember);
  }, [toRemember]);

  const note = decision?.show ?? null;
  if (note === null || dismissed) return null;
  return (
    <Alert
      mb="md"
      color="blue"
      variant="light"
      icon={<IconSparkles size={iconSize('xs')} />}
      title={t('master.releaseNotice.title', { version: note.version })}
      withCloseButton
      closeButtonLabel={t('master.releaseNotice.close')}
      onClose={() => {
        remember(APP_VERSION);
        setDismissed(true);
      }}
      data-testid="release-notice"
    >
      <Text size="sm" fw={600}>
        {note.title}
      </Text>
      <Text size="sm" lineClamp={3}>
        {note.body}
      </Text>
      <Anchor component={Link} to="/help" size="sm">
        {t('master.releaseNotice.more')}
      </Anchor>
    </Alert>
  );
}
