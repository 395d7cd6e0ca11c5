/**
 * Alerts that reach staff away from the station (issue 20; docs/api.md "Notifications"): what the
 * server's notification plugin and the screens (/account-info, /domain-config, the service worker)
 * agree on — each person's channels, each domain's settings and on-duty schedule, push
 * subscriptions, escalation steps and the delivery log.
 */
import { z } from 'zod/v3';
import { ALERT_TYPE_NAMES, type AlertTypeName } from './monitoring.ts';

export const NOTIFICATIONS_API = '/api/notifications';

/** A person's own channels, each opt-in. */
export const PERSONAL_CHANNELS = ['push', 'mail', 'line'] as const;
export type PersonalChannel = (typeof PERSONAL_CHANNELS)[number];
/** Every channel of the delivery queue: the personal ones and the domain's webhook. */
export const DELIVERY_CHANNELS = [...PERSONAL_CHANNELS, 'webhook'] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

/** Who an escalation step notifies: the on-duty staff of the room's unit, the administrators (3+), the owners (5), everyone. */
export const ESCALATION_TARGETS = ['onDuty', 'administrators', 'owners', 'allStaff'] as const;
export type EscalationTarget = (typeof ESCALATION_TARGETS)[number];

export const SHIFTS = ['day', 'night'] as const;
export type Shift = (typeof SHIFTS)[number];

/** A queued notification's life: `held` by the rate limit or quiet hours until a summary covers it. */
export const DELIVERY_STATUSES = ['queued', 'sending', 'sent', 'failed', 'held', 'summarized', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'times are HH:MM');
const day = z.string().regex(/^\d{4}-\d\d-\d\d$/, 'dates are YYYY-MM-DD');
const base64url = z.string().regex(/^[A-Za-z0-9_-]+=*$/, 'base64url');

/** A LINE user id of the facility's official account (Messaging API: "U" and 32 hex digits). */
export const LINE_USER_ID = /^U[0-9a-f]{32}$/;

export const notificationPreferencesSchema = z
  .object({
    channels: z.object({ push: z.boolean(), mail: z.boolean(), line: z.boolean() }).strict(),
    /** The alert types this person is notified of. */
    alertTypes: z.array(z.enum(ALERT_TYPE_NAMES)).max(ALERT_TYPE_NAMES.length),
    /** Only critical alerts reach this person in these hours (their domain's time zone); null: none. */
    quietHours: z.object({ start: hhmm, end: hhmm }).strict().nullable(),
    lineUserId: z.string().regex(LINE_USER_ID, 'a LINE user id is U and 32 hex digits').nullable(),
  })
  .strict();
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

/** Until a person chooses: no channel, every alert type (so turning a channel on is enough). */
export const DEFAULT_PREFERENCES: NotificationPreferences = {
  channels: { push: false, mail: false, line: false },
  alertTypes: [...ALERT_TYPE_NAMES],
  quietHours: null,
  lineUserId: null,
};

/** A browser's PushSubscription (its toJSON), as the service worker gives it. */
export const pushSubscriptionInput = z
  .object({
    endpoint: z.string().url().max(2048),
    keys: z.object({ p256dh: base64url.min(80).max(100), auth: base64url.min(16).max(48) }).strict(),
    label: z.string().trim().max(100).optional(),
    /**
     * The endpoint this subscription replaces (the service worker's `pushsubscriptionchange`: the
     * browser renewed its subscription). Only the caller's own is replaced, keeping its id and label.
     */
    replaces: z.string().url().max(2048).optional(),
  })
  .strict();
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionInput>;

/** A registered browser as its owner sees it listed. */
export const pushSubscriptionViewSchema = z
  .object({
    id: z.string(),
    label: z.string().nullable(),
    /** The push service's host (the endpoint itself is a secret). */
    service: z.string(),
    createdAt: z.string(),
    lastSuccessAt: z.string().nullable(),
  })
  .strict();
export type PushSubscriptionView = z.infer<typeof pushSubscriptionViewSchema>;

/** GET, POST and DELETE of `/api/notifications/subscriptions`: the caller's browsers, newest first. */
export const pushSubscriptionsSchema = z.object({ subscriptions: z.array(pushSubscriptionViewSchema) }).strict();

/** GET `/api/notifications/vapid-public-key`: the server's application server key (Web Push, RFC 8292). */
export const vapidPublicKeySchema = z.object({ publicKey: z.string() }).strict();

export const escalationStepSchema = z
  .object({
    target: z.enum(ESCALATION_TARGETS),
    /** Minutes after the previous step, if nobody has acknowledged; the first step is at once (0). */
    afterMin: z.number().int().gte(0).lte(240),
  })
  .strict();
export type EscalationStep = z.infer<typeof escalationStepSchema>;

export const MAX_ESCALATION_STEPS = 5;

export const domainNotificationSettingsSchema = z
  .object({
    /** Whether notification texts may name the resident (privacy: by default only the room). */
    showResidentName: z.boolean(),
    escalation: z.array(escalationStepSchema).min(1).max(MAX_ESCALATION_STEPS),
    /** Per person and channel: at most `max` notifications in `windowMin`; the rest become one summary. */
    rateLimit: z.object({ max: z.number().int().gte(1).lte(60), windowMin: z.number().int().gte(1).lte(120) }).strict(),
    /** The webhook's address (https), null: none. */
    webhookUrl: z.string().url().max(2048).nullable(),
    /** The alert types the webhook receives. */
    webhookAlertTypes: z.array(z.enum(ALERT_TYPE_NAMES)).max(ALERT_TYPE_NAMES.length),
  })
  .strict();
export type DomainNotificationSettings = z.infer<typeof domainNotificationSettingsSchema>;

export const DEFAULT_DOMAIN_SETTINGS: DomainNotificationSettings = {
  showResidentName: false,
  escalation: [
    { target: 'onDuty', afterMin: 0 },
    { target: 'administrators', afterMin: 5 },
    { target: 'owners', afterMin: 10 },
  ],
  rateLimit: { max: 3, windowMin: 5 },
  webhookUrl: null,
  webhookAlertTypes: [...ALERT_TYPE_NAMES],
};

/** PUT …/settings: the settings, and the LINE channel access token (a string sets it, null removes it, absent keeps it). */
export const domainSettingsInput = domainNotificationSettingsSchema
  .extend({ lineChannelAccessToken: z.string().trim().min(10).max(500).nullable().optional() })
  .strict();
export type DomainSettingsInput = z.infer<typeof domainSettingsInput>;

/** What GET and PUT …/settings answer: secrets never leave the server, only whether they are set. */
export const domainSettingsViewSchema = domainNotificationSettingsSchema.extend({ lineConfigured: z.boolean(), webhookSecretSet: z.boolean() }).strict();
export type DomainSettingsView = z.infer<typeof domainSettingsViewSchema>;

/** POST …/webhook-secret: the new secret, shown this once (the server keeps it; later reads say only `webhookSecretSet`). */
export const webhookSecretSchema = z.object({ secret: z.string().min(1) }).strict();
export type WebhookSecretView = z.infer<typeof webhookSecretSchema>;

export const shiftAssignmentSchema = z
  .object({
    uid: z.string().min(1).max(128),
    /** The unit (or floor) this person covers; null: every room of the domain. */
    unit: z.string().trim().min(1).max(100).nullable(),
  })
  .strict();
export type ShiftAssignment = z.infer<typeof shiftAssignmentSchema>;

export const MAX_SHIFT_STAFF = 100;
export const shiftInput = z.object({ assignments: z.array(shiftAssignmentSchema).max(MAX_SHIFT_STAFF) }).strict();
export const shiftParams = z.object({ day, shift: z.enum(SHIFTS) }).strict();
export const SHIFT_DAYS_MAX = 31;
export const shiftRangeQuery = z.object({ from: day, days: z.coerce.number().int().gte(1).lte(SHIFT_DAYS_MAX).default(7) }).strict();

/** One shift's staff: PUT …/shifts/:day/:shift answers it, GET …/shifts lists those of the range. */
export const shiftViewSchema = z.object({ day, shift: z.enum(SHIFTS), assignments: z.array(shiftAssignmentSchema) }).strict();
export type ShiftView = z.infer<typeof shiftViewSchema>;

/** A person the schedule may name: the domain's staff (2–5, not disabled). */
export const shiftStaffSchema = z.object({ uid: z.string(), displayName: z.string(), accessLevel: z.number().int() }).strict();
export type ShiftStaffView = z.infer<typeof shiftStaffSchema>;

/** GET …/domains/:domainId/shifts?from=&days=: the shifts set in the range (days without one are absent) and who may be assigned. */
export const shiftScheduleSchema = z.object({ shifts: z.array(shiftViewSchema), staff: z.array(shiftStaffSchema) }).strict();
export type ShiftScheduleView = z.infer<typeof shiftScheduleSchema>;

/** One step of an alert's escalation, as GET …/alerts/:id/escalation answers. */
export const escalationStepViewSchema = z
  .object({ step: z.number().int(), target: z.enum(ESCALATION_TARGETS), at: z.string(), recipients: z.number().int() })
  .strict();
export type EscalationStepView = z.infer<typeof escalationStepViewSchema>;

/** One queued notification (one recipient, one channel) of the delivery log. */
export const deliveryViewSchema = z
  .object({
    id: z.number().int(),
    alertId: z.string(),
    step: z.number().int(),
    channel: z.enum(DELIVERY_CHANNELS),
    /** The staff member's uid, or `domain` for the webhook. */
    recipient: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    createdAt: z.string(),
    sentAt: z.string().nullable(),
  })
  .strict();
export type DeliveryView = z.infer<typeof deliveryViewSchema>;

/** GET …/alerts/:alertId/escalation: the alert's escalation, its steps so far and its deliveries (at most 500). */
export const alertEscalationViewSchema = z
  .object({
    alertId: z.string(),
    openedAt: z.string(),
    closedAt: z.string().nullable(),
    /** `acknowledged`, `ended`, `exhausted` (every step done) or null while it escalates. */
    closedReason: z.string().nullable(),
    nextStepAt: z.string().nullable(),
    steps: z.array(escalationStepViewSchema),
    deliveries: z.array(deliveryViewSchema),
  })
  .strict();
export type AlertEscalationView = z.infer<typeof alertEscalationViewSchema>;

/** POST …/alerts/:alertId/acknowledge: acknowledged, and when (the first acknowledgement's time, if someone was first). */
export const alertAcknowledgedSchema = z.object({ acknowledged: z.literal(true), acknowledgedAt: z.string() }).strict();
export type AlertAcknowledged = z.infer<typeof alertAcknowledgedSchema>;

/** POST …/test: how many notifications were queued (0: no channel is on, or none can be reached). */
export const testNotificationSchema = z.object({ queued: z.number().int().gte(0) }).strict();
export type TestNotificationResult = z.infer<typeof testNotificationSchema>;

export const DELIVERY_PAGE_MAX = 100;
export const deliveryPageQuery = z
  .object({ before: z.coerce.number().int().gte(1).optional(), limit: z.coerce.number().int().gte(1).lte(DELIVERY_PAGE_MAX).default(50) })
  .strict();

export const deliveryAttemptViewSchema = z
  .object({
    id: z.number().int(),
    queueId: z.number().int(),
    channel: z.enum(DELIVERY_CHANNELS),
    attempt: z.number().int(),
    at: z.string(),
    ok: z.boolean(),
    statusCode: z.number().int().nullable(),
    error: z.string().nullable(),
    durationMs: z.number(),
  })
  .strict();
export type DeliveryAttemptView = z.infer<typeof deliveryAttemptViewSchema>;

/** GET …/domains/:domainId/deliveries: a page of the delivery log, newest first. */
export const deliveryPageViewSchema = z
  .object({
    deliveries: z.array(deliveryViewSchema),
    /** Every attempt of those deliveries, oldest first. */
    attempts: z.array(deliveryAttemptViewSchema),
    /** The display names of the page's recipients (staff of the domain or of its corporation) by uid. */
    recipientNames: z.record(z.string()),
    /** `before` of the next (older) page; null: this was the last. */
    nextBefore: z.number().int().nullable(),
  })
  .strict();
export type DeliveryPageView = z.infer<typeof deliveryPageViewSchema>;

/** What a push message carries; the service worker turns it into the notification. */
export interface PushMessage {
  kind: 'alert' | 'summary' | 'test';
  /** Notification title and body, already in Japanese. */
  title: string;
  body: string;
  /** Replaces an earlier notification of the same alert on the device. */
  tag: string;
  alertId: string | null;
  roomId: string | null;
  alertType: AlertTypeName | null;
  /** The page 開く opens. */
  url: string;
  /** Where 確認 posts (the session cookie decides who acknowledges); null: no 確認. */
  acknowledgeUrl: string | null;
}

export const acknowledgePath = (alertId: string) => `${NOTIFICATIONS_API}/alerts/${encodeURIComponent(alertId)}/acknowledge`;

/** The webhook's headers (docs/security.md "Webhook signature"). */
export const WEBHOOK_HEADERS = { signature: 'x-nemuri-signature', timestamp: 'x-nemuri-timestamp', delivery: 'x-nemuri-delivery' } as const;
