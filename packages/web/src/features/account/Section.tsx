import { Alert, Paper, Stack, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { iconSize } from '../../lib/icons.ts';

/** The outcome of the last action of a section, shown inside it (success also as a notification). */
export type Feedback = { ok: boolean; message: string } | null;

export function FeedbackAlert({ feedback }: { feedback: Feedback }) {
  if (feedback === null) return null;
  return (
    <Alert
      color={feedback.ok ? 'teal' : 'red'}
      role={feedback.ok ? 'status' : 'alert'}
      icon={feedback.ok ? undefined : <IconAlertCircle size={iconSize('xs')} />}
    >
      {feedback.message}
    </Alert>
  );
}

/** One titled card of /account-info; its title names the region for screen readers and tests. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-label={title}>
      <Stack gap="md">
        <Title order={3} size="h5">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}
