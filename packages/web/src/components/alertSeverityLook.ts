/**
 * How an alert's severity looks (the station's banner and list, the alert history, the night
 * summaries): one colour per severity of the shared table, so the same alert reads the same everywhere.
 */
import { ALERT_SEVERITY, type AlertSeverity } from '@nemuri/shared/monitoring';

export const SEVERITY_COLORS: Readonly<Record<AlertSeverity, string>> = { critical: 'red', major: 'orange', minor: 'yellow', warning: 'gray' };

/** The severity of a type; a type this build does not know yet counts as the lowest. */
export function severityOf(type: string): AlertSeverity {
  return (ALERT_SEVERITY as Readonly<Record<string, AlertSeverity>>)[type] ?? 'warning';
}
