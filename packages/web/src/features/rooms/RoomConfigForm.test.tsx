import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { DocumentError, MESSAGES } from '@nemuri/shared/documents/errors';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { theme } from '../../app/theme.ts';
import { documents } from '../../lib/documents/documents.ts';
import { initTranslations } from '../../lib/i18n.ts';
import { RoomConfigForm } from './RoomConfigForm.tsx';

function renderForm() {
  const onClose = vi.fn();
  render(
    <MantineProvider theme={theme}>
      <Notifications />
      <RoomConfigForm
        room={null}
        rooms={[]}
        devices={[]}
        domains={[{ id: 'facility-a', name: 'さくら苑', rootDomainId: 'corp' }]}
        defaultDomainId="facility-a"
        defaultSortOrder={4}
        floors={['1F']}
        units={[]}
        canAssign
        onClose={onClose}
      />
    </MantineProvider>,
  );
  return { onClose };
}

describe('room form', () => {
  beforeAll(async () => {
    await initTranslations('ja');
    // jsdom has no FontFaceSet; Mantine's autosizing note field listens to it.
    if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { configurable: true, value: new EventTarget() });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('says in Japanese, next to the field, what the schema refuses, and sends nothing', async () => {
    const commit = vi.spyOn(documents, 'runTransaction');
    renderForm();
    fireEvent.click(await screen.findByRole('button', { name: '追加' }));
    expect(await screen.findByText('部屋名を入力してください')).toBeTruthy();
    expect(commit).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText(/^部屋名/), { target: { value: '301号室' } });
    await waitFor(() => expect(screen.queryByText('部屋名を入力してください')).toBeNull());
  });

  it("puts the server's schema issues next to their fields and words its refusals in Japanese", async () => {
    vi.spyOn(documents, 'runTransaction').mockRejectedValueOnce(
      new DocumentError('invalid-argument', 'Expected string, received number', [{ path: ['residentName'], message: 'Expected string, received number' }]),
    );
    renderForm();
    fireEvent.change(await screen.findByLabelText(/^部屋名/), { target: { value: '301号室' } });
    fireEvent.click(screen.getByRole('button', { name: '追加' }));
    expect(await screen.findByText('入居者名の形式が正しくありません')).toBeTruthy();

    vi.spyOn(documents, 'runTransaction').mockRejectedValueOnce(new DocumentError('invalid-argument', MESSAGES.notUnique('deviceSerial')));
    fireEvent.click(screen.getByRole('button', { name: '追加' }));
    await waitFor(() => expect(screen.getAllByText('この機器は既に他の部屋に割り当てられています').length).toBeGreaterThan(0));

    vi.spyOn(documents, 'runTransaction').mockRejectedValueOnce(new DocumentError('permission-denied', MESSAGES.outOfScope));
    fireEvent.click(screen.getByRole('button', { name: '追加' }));
    await waitFor(() => expect(screen.getAllByText('この操作を行う権限がありません').length).toBeGreaterThan(0));
  });
});
