import { Button, Group } from '@mantine/core';

/** The end of a form or dialog: cancel, then the submit button (busy while the request runs). */
export function FormFooter({ cancelLabel, submitLabel, busy, onCancel }: { cancelLabel: string; submitLabel: string; busy: boolean; onCancel: () => void }) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        {cancelLabel}
      </Button>
      <Button type="submit" loading={busy}>
        {submitLabel}
      </Button>
    </Group>
  );
}
