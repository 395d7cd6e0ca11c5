/** Sleep reports (/report, PDF, CSV): one source of truth for their numbers. */
export * from './period.ts';
export * from './sleepDayClock.ts';
export * from './roomReport.ts';
export * from './columns.ts';
export * from './csv.ts';
export * from './reportApi.ts';
