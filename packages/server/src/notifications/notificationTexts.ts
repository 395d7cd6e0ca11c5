/**
 * The words of a notification, in Japanese, the same on every channel: the room and the alert
 * type; the resident's name only when the domain allows it (DomainNotificationSettings
 * `showResidentName`) — a lock screen is read by whoever holds the phone.
 */
import { ALERT_SEVERITY_LABELS_JA, ALERT_TYPE_LABELS_JA } from '@nemuri/shared/alertHistory';
import { PRODUCT_NAME_JA } from '@nemuri/shared/constants';
import { ALERT_SEVERITY, type AlertTypeName } from '@nemuri/shared/monitoring';

export interface AlertSubject {
  alertId: string;
  type: AlertTypeName;
  startedAt: string;
  roomId: string | null;
  roomName: string | null;
  unit: string | null;
  /** Present only when the domain allows names in notifications. */
  residentName: string | null;
}

export function alertTypeLabel(type: AlertTypeName): string {
  return ALERT_TYPE_LABELS_JA[type];
}

function clock(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('ja-JP', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
}

/** 「【緊急】101号室 ナースコール」 */
export function alertTitle(alert: AlertSubject): string {
  return `【${ALERT_SEVERITY_LABELS_JA[ALERT_SEVERITY[alert.type]]}】${alert.roomName ?? '部屋不明'} ${ALERT_TYPE_LABELS_JA[alert.type]}`;
}

export function alertBody(alert: AlertSubject, timeZone: string, step: number): string {
  const lines = [`${clock(alert.startedAt, timeZone)} 発生`];
  if (alert.unit !== null) lines.push(`ユニット: ${alert.unit}`);
  if (alert.residentName !== null) lines.push(`入居者: ${alert.residentName}様`);
  if (step > 0) lines.push('確認されていないため、お知らせしています。');
  return lines.join('\n');
}

export function alertMail(alert: AlertSubject, timeZone: string, step: number, roomUrl: string): { subject: string; text: string } {
  return {
    subject: mailSubject(alertTitle(alert)),
    text: [
      alertTitle(alert),
      '',
      alertBody(alert, timeZone, step),
      '',
      '部屋を開く:',
      roomUrl,
      '',
      '通知の設定はアカウント情報（/account-info）で変えられます。',
      '',
    ].join('\n'),
  };
}

export interface SummaryCount {
  count: number;
  rooms: string[];
}

/** One notification instead of many when a person's rate limit holds the rest (a storm). */
export function summaryTitle({ count }: SummaryCount): string {
  return `【まとめ】アラート ${count} 件`;
}

export function summaryBody({ count, rooms }: SummaryCount): string {
  const shown = rooms.slice(0, 5).join('、');
  const more = rooms.length > 5 ? ` ほか${rooms.length - 5}室` : '';
  return `短時間に ${count} 件のアラートがありました（${shown}${more}）。見守り画面で確認してください。`;
}

export const TEST_TITLE = `【テスト】${PRODUCT_NAME_JA}の通知`;

/** Every notification mail names the product as the other mails do (mailTexts.ts). */
export function mailSubject(title: string): string {
  return `【${PRODUCT_NAME_JA}】${title}`;
}
export const TEST_BODY = 'この端末に通知が届きます。';
