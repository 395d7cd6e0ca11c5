/**
 * The zod schemas the handlers parse bodies and queries with, by route (`METHOD url` as registered),
 * for the OpenAPI document (openapi.ts): the same objects the handlers import, so the document
 * cannot drift from what is checked. openapi.test.ts fails when a key names no registered route.
 * Routes not listed here are still in the document (from the router), with their path parameters
 * and any JSON schema of their own.
 */
import type { ZodTypeAny } from 'zod/v3';
import {
  ALERT_HISTORY_CSV_PATH,
  ALERT_HISTORY_PATH,
  alertCsvQuery,
  alertHistoryQuery,
  NIGHT_SUMMARY_PATH,
  nightSummaryQuery,
} from '@nemuri/shared/alertHistory';
import { AUDIT_LOG_CSV_PATH, AUDIT_LOG_PATH, auditCsvQuery, auditLogQuery } from '@nemuri/shared/auditLog';
import { reprocessInput } from '@nemuri/shared/imports';
import { apiKeyCreateSchema, apiKeyListQuerySchema, fhirObservationQuerySchema } from '@nemuri/shared/integrations';
import {
  deliveryPageQuery,
  notificationPreferencesSchema,
  NOTIFICATIONS_API,
  pushSubscriptionInput,
  shiftInput,
  shiftRangeQuery,
} from '@nemuri/shared/notifications';
import { partnerRequestAnswer, partnerRequestInput } from '@nemuri/shared/partnerRequests';
import { reportQuery } from '@nemuri/shared/report/period';
import { reportCommentInput } from '@nemuri/shared/report/reportApi';
import { lendBody } from '../borrows/borrowsPlugin.ts';

export interface RouteDoc {
  summary?: string;
  body?: ZodTypeAny;
  query?: ZodTypeAny;
}

export const ROUTE_DOCS: Readonly<Record<string, RouteDoc>> = {
  [`GET ${ALERT_HISTORY_PATH}`]: { summary: 'Alert history (API key scope alerts.read)', query: alertHistoryQuery },
  [`GET ${ALERT_HISTORY_CSV_PATH}`]: { summary: 'Alert history as CSV', query: alertCsvQuery },
  [`GET ${NIGHT_SUMMARY_PATH}`]: { summary: 'Night summary of alerts', query: nightSummaryQuery },
  [`GET ${AUDIT_LOG_PATH}`]: { summary: 'Audit log', query: auditLogQuery },
  [`GET ${AUDIT_LOG_CSV_PATH}`]: { summary: 'Audit log as CSV', query: auditCsvQuery },
  'GET /api/reports/data': { summary: 'Sleep report data of rooms over a period', query: reportQuery },
  'GET /api/reports/pdf': { summary: 'Sleep report as PDF', query: reportQuery },
  'PUT /api/reports/rooms/:roomId/comment': { summary: "The report's comment for a room", body: reportCommentInput },
  'GET /api/integrations/domains/:domainId/api-keys': { summary: "A domain's integration API keys (no secrets)", query: apiKeyListQuerySchema },
  'POST /api/integrations/domains/:domainId/api-keys': { summary: 'Creates an integration API key; its secret is shown once', body: apiKeyCreateSchema },
  'GET /api/fhir/rooms/:roomId/Observation': {
    summary: "HL7 FHIR R4 Bundle of a room's nightly Observations (API key scope rooms.read)",
    query: fhirObservationQuerySchema,
  },
  'PUT /api/agency/:agencyId/partner-requests/:domainId': { summary: 'An agency asks a domain to become its partner', body: partnerRequestInput },
  'POST /api/domains/:domainId/partner-requests/:agencyId/answer': { summary: "A domain answers an agency's partner request", body: partnerRequestAnswer },
  [`PUT ${NOTIFICATIONS_API}/preferences`]: { summary: "The signed-in user's notification preferences", body: notificationPreferencesSchema },
  [`POST ${NOTIFICATIONS_API}/subscriptions`]: { summary: 'Registers a Web Push subscription', body: pushSubscriptionInput },
  [`GET ${NOTIFICATIONS_API}/domains/:domainId/deliveries`]: { summary: 'Notification delivery log, paged', query: deliveryPageQuery },
  [`GET ${NOTIFICATIONS_API}/domains/:domainId/shifts`]: { summary: 'On-duty schedule', query: shiftRangeQuery },
  [`PUT ${NOTIFICATIONS_API}/domains/:domainId/shifts/:day/:shift`]: { summary: 'Staff on duty for one shift', body: shiftInput },
  'POST /api/rooms/:roomId/uploads/:uploadId/reprocess': { summary: 'Imports an uploaded recording again', body: reprocessInput },
  'POST /api/devices/:serial/borrows': { summary: 'Lends a device to a domain', body: lendBody },
};
