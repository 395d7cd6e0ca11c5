/**
 * The night summaries of one room or of every room in scope, fetched once per day and room asked.
 * A null day asks for the facility's latest night: which night is "last night" depends on the
 * facility's night window and time zone, which the server knows and the browser's clock does not.
 */
import { useEffect, useState } from 'react';
import type { NightSummaryAnswer } from '@nemuri/shared/alertHistory';
import { fetchNightSummary } from './alertHistoryApi.ts';

export interface NightSummaryState {
  answer: NightSummaryAnswer | null;
  loading: boolean;
  error: Error | null;
}

export function useNightSummary(day: string | null, roomId?: string): NightSummaryState {
  const request = `${day ?? 'latest'} ${roomId ?? ''}`;
  const [result, setResult] = useState<{ request: string; answer: NightSummaryAnswer | null; error: Error | null } | null>(null);
  useEffect(() => {
    let current = true;
    fetchNightSummary(day, roomId).then(
      (answer) => {
        if (current) setResult({ request, answer, error: null });
      },
      (failure: unknown) => {
        if (current) setResult({ request, answer: null, error: failure instanceof Error ? failure : new Error(String(failure)) });
      },
    );
    return () => {
      current = false;
    };
  }, [day, roomId, request]);
  const loading = result?.request !== request;
  return { answer: loading ? null : (result?.answer ?? null), loading, error: loading ? null : (result?.error ?? null) };
}
