/**
 * One page of the alert history at a time, newest first, keyset-paged like every history
 * (lib/cursorPages.ts). A change of filter starts again at the first page.
 */
import type { AlertHistoryFilter, AlertHistoryPage } from '@nemuri/shared/alertHistory';
import { useCursorPages, type CursorPagesState } from '../../../lib/cursorPages.ts';
import { fetchAlertPage } from './alertHistoryApi.ts';

export const PAGE_SIZE = 50;

export type AlertHistoryState = CursorPagesState<AlertHistoryPage>;

export function useAlertHistory(filter: AlertHistoryFilter, pageSize: number = PAGE_SIZE): AlertHistoryState {
  return useCursorPages(filter, pageSize, fetchAlertPage);
}
