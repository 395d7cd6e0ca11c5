import { Button, Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { iconSize } from '../lib/icons.ts';

interface MessagePanelProps {
  icon: ReactNode;
  color: string;
  title: string;
  body: string;
  action?: { label: string; to: string };
}

/** A calm, centred message for whole-page states: not found, forbidden, errors. */
export function MessagePanel({ icon, color, title, body, action }: MessagePanelProps) {
  return (
    <Center py="xl">
      <Paper withBorder radius="md" p="xl" maw={520} w="100%">
        <Stack align="center" gap="md" ta="center">
          <ThemeIcon size={iconSize('xl') + 14} radius="xl" variant="light" color={color}>
            {icon}
          </ThemeIcon>
          <Title order={2}>{title}</Title>
          <Text c="dimmed">{body}</Text>
          {action ? (
            <Button component={Link} to={action.to} variant="light">
              {action.label}
            </Button>
          ) : null}
        </Stack>
      </Paper>
    </Center>
  );
}
