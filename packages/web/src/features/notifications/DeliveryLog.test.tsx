/** The delivery log of /domain-config 「通知」 on its own: loading, empty, error and retry, recipients, attempts, paging. */
import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { DeliveryPageView, DeliveryView } from '@nemuri/shared/notifications';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { theme } from '../../app/theme.ts';
import { ApiError } from '../../lib/http/apiError.ts';
import { initTranslations } from '../../lib/i18n.ts';
import { notificationsApi } from './api/notificationsApi.ts';
import { DeliveryLog } from './DeliveryLog.tsx';

const AT = '2026-03-10T17:00:05.000Z';

function delivery(id: number, change: Partial<DeliveryView> = {}): DeliveryView {
  return {
    id,
    alertId: `alert-${id}`,
    step: 0,
    channel: 'push',
    recipient: 'u-nurse',
    status: 'sent',
    attempts: 1,
    lastError: null,
    createdAt: AT,
    sentAt: AT,
    ...change,
  };
}

function page(deliveries: DeliveryView[], nextBefore: number | null = null, attempts: DeliveryPageView['attempts'] = []): DeliveryPageView {
  return { deliveries, attempts, recipientNames: { 'u-nurse': '夜勤 花子' }, nextBefore };
}

function renderLog() {
  render(
    <MantineProvider theme={theme}>
      <DeliveryLog domainId="facility-a" />
    </MantineProvider>,
  );
}

describe('the delivery log', () => {
  beforeAll(async () => {
    await initTranslations('ja');
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('says it is loading, then that nothing was delivered yet', async () => {
    let answer: (value: DeliveryPageView) => void = () => undefined;
    vi.spyOn(notificationsApi, 'deliveries').mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    renderLog();
    expect(await screen.findByText('配信ログを読み込んでいます')).toBeTruthy();
    answer(page([]));
    expect(await screen.findByText('まだ配信はありません')).toBeTruthy();
    expect(screen.queryByText('配信ログを読み込んでいます')).toBeNull();
    expect((screen.getByRole('button', { name: '古い配信' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says in Japanese that it could not load, and loads again on request', async () => {
    const deliveries = vi
      .spyOn(notificationsApi, 'deliveries')
      .mockRejectedValueOnce(new ApiError({ status: 0, code: 'network', message: 'offline' }))
      .mockResolvedValueOnce(page([delivery(3)]));
    renderLog();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('配信ログを読み込めませんでした');
    expect(alert.textContent).toContain('サーバーに接続できませんでした');
    fireEvent.click(within(alert).getByRole('button', { name: 'もう一度読み込む' }));
    expect(await screen.findByText('夜勤 花子')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(deliveries).toHaveBeenCalledTimes(2);
  });

  it("shows each delivery's recipient and, on request, its attempts", async () => {
    vi.spyOn(notificationsApi, 'deliveries').mockResolvedValueOnce(
      page(
        [
          delivery(7, { channel: 'webhook', recipient: 'domain', status: 'failed', attempts: 2, lastError: 'HTTP 503', step: 0 }),
          delivery(6, { channel: 'mail', step: 1, attempts: 0, status: 'held', sentAt: null }),
        ],
        null,
        [
          { id: 1, queueId: 7, channel: 'webhook', attempt: 1, at: AT, ok: false, statusCode: 500, error: 'HTTP 500', durationMs: 41 },
          { id: 2, queueId: 7, channel: 'webhook', attempt: 2, at: AT, ok: false, statusCode: 503, error: 'HTTP 503', durationMs: 38 },
        ],
      ),
    );
    renderLog();
    const webhookRow = (await screen.findByText('施設の Webhook')).closest('tr') as HTMLElement;
    expect(webhookRow.textContent).toContain('Webhook');
    expect(webhookRow.textContent).toContain('1段目');
    expect(webhookRow.textContent).toContain('失敗');
    expect(webhookRow.textContent).toContain('HTTP 503');
    const mailRow = screen.getByText('夜勤 花子').closest('tr') as HTMLElement;
    expect(mailRow.textContent).toContain('メール');
    expect(mailRow.textContent).toContain('2段目');
    expect(mailRow.textContent).toContain('保留（上限）');

    fireEvent.click(within(webhookRow).getByRole('button', { name: '2 回' }));
    const attempts = await screen.findByTestId('delivery-attempts');
    const lines = within(attempts)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^1回目 .+ 失敗（41 ミリ秒） HTTP 500 エラー: HTTP 500$/);
    expect(lines[1]).toMatch(/^2回目 .+ 失敗（38 ミリ秒） HTTP 503/);
    fireEvent.click(within(mailRow).getByRole('button', { name: '0 回' }));
    expect(await screen.findByText('まだ送信していません')).toBeTruthy();
    fireEvent.click(within(webhookRow).getByRole('button', { name: '2 回' }));
    await waitFor(() => expect(screen.queryByTestId('delivery-attempts')).toBeNull());
  });

  it('pages back to older deliveries and forward again', async () => {
    const deliveries = vi
      .spyOn(notificationsApi, 'deliveries')
      .mockImplementation(async (_domain, before) => (before === null ? page([delivery(30), delivery(29)], 29) : page([delivery(5, { recipient: 'u-gone' })])));
    renderLog();
    await screen.findAllByText('夜勤 花子');
    expect(screen.getByText('1 ページ目')).toBeTruthy();
    expect((screen.getByRole('button', { name: '新しい配信' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: '古い配信' }));
    // A recipient the server could not name (no longer staff) is shown by id.
    expect(await screen.findByText('u-gone')).toBeTruthy();
    expect(screen.getByText('2 ページ目')).toBeTruthy();
    expect(deliveries).toHaveBeenLastCalledWith('facility-a', 29);
    expect((screen.getByRole('button', { name: '古い配信' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: '新しい配信' }));
    expect((await screen.findAllByText('夜勤 花子')).length).toBe(2);
    expect(deliveries).toHaveBeenLastCalledWith('facility-a', null);
  });
});
