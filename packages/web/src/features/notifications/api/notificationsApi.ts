/**
 * The calls of the notification screens (server notifications/notificationsPlugin.ts, docs/api.md
 * "Notifications"), and a small loader hook. Failures throw `NotificationsApiError` with the
 * server's code, which the screens translate.
 */
import { useCallback, useEffect, useState } from 'react';
import {
  NOTIFICATIONS_API as API,
  type DeliveryPageView,
  type DomainSettingsInput,
  type DomainSettingsView,
  type NotificationPreferences,
  type PushSubscriptionInput,
  type PushSubscriptionView,
  type Shift,
  type ShiftAssignment,
  type ShiftScheduleView,
  type ShiftView,
  type TestNotificationResult,
  type WebhookSecretView,
} from '@nemuri/shared/notifications';
import { http, type HttpMethod } from '../../../lib/http/httpClient.ts';

function call<T>(method: HttpMethod, url: string, body?: unknown): Promise<T> {
  return http.json<T>(method, url, { body });
}

const domain = (domainId: string) => `${API}/domains/${encodeURIComponent(domainId)}`;

export const notificationsApi = {
  vapidPublicKey: () => call<{ publicKey: string }>('GET', `${API}/vapid-public-key`),
  preferences: () => call<NotificationPreferences>('GET', `${API}/preferences`),
  savePreferences: (preferences: NotificationPreferences) => call<NotificationPreferences>('PUT', `${API}/preferences`, preferences),
  subscriptions: () => call<{ subscriptions: PushSubscriptionView[] }>('GET', `${API}/subscriptions`),
  addSubscription: (input: PushSubscriptionInput) => call<{ subscriptions: PushSubscriptionView[] }>('POST', `${API}/subscriptions`, input),
  removeSubscription: (id: string) => call<{ subscriptions: PushSubscriptionView[] }>('DELETE', `${API}/subscriptions/${encodeURIComponent(id)}`),
  sendTest: () => call<TestNotificationResult>('POST', `${API}/test`, {}),
  settings: (domainId: string) => call<DomainSettingsView>('GET', `${domain(domainId)}/settings`),
  saveSettings: (domainId: string, input: DomainSettingsInput) => call<DomainSettingsView>('PUT', `${domain(domainId)}/settings`, input),
  rotateWebhookSecret: (domainId: string) => call<WebhookSecretView>('POST', `${domain(domainId)}/webhook-secret`, {}),
  shifts: (domainId: string, from: string, days: number) => call<ShiftScheduleView>('GET', `${domain(domainId)}/shifts?from=${from}&days=${days}`),
  saveShift: (domainId: string, day: string, shift: Shift, assignments: ShiftAssignment[]) =>
    call<ShiftView>('PUT', `${domain(domainId)}/shifts/${day}/${shift}`, { assignments }),
  deliveries: (domainId: string, before: number | null) =>
    call<DeliveryPageView>('GET', `${domain(domainId)}/deliveries?limit=20${before === null ? '' : `&before=${before}`}`),
};

export interface Loaded<T> {
  data: T | null;
  error: unknown;
  loading: boolean;
  reload: () => void;
  set: (data: T) => void;
}

/**
 * A form's draft of loaded data: the loaded value until the user edits it, the edits until the data
 * is loaded again or `key` changes (another day or shift of a schedule).
 */
export function useDraft<S, T>(source: S | null, key: string, initial: (source: S) => T): [T | null, (value: T) => void] {
  const [edit, setEdit] = useState<{ source: S; key: string; value: T } | null>(null);
  const value = source === null ? null : edit !== null && edit.source === source && edit.key === key ? edit.value : initial(source);
  const set = useCallback((next: T) => source !== null && setEdit({ source, key, value: next }), [source, key]);
  return [value, set];
}

/** Loads with `load` whenever `key` changes or `reload` is called; null key loads nothing. */
export function useLoaded<T>(key: string | null, load: () => Promise<T>): Loaded<T> {
  const [state, setState] = useState<{ key: string | null; round: number; data: T | null; error: unknown }>({ key: null, round: -1, data: null, error: null });
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (key === null) return undefined;
    let current = true;
    load().then(
      (data) => current && setState({ key, round, data, error: null }),
      (error: unknown) => current && setState({ key, round, data: null, error }),
    );
    return () => {
      current = false;
    };
    // `load` changes with every render; the key and the round decide what to load.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, round]);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  const set = useCallback((data: T) => setState((previous) => ({ ...previous, data, error: null })), []);
  const fresh = state.key === key;
  // While loading the same key again, what was loaded before stays shown next to `loading`.
  return { data: fresh ? state.data : null, error: fresh ? state.error : null, loading: key !== null && (!fresh || state.round !== round), reload, set };
}
