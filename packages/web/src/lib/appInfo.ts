/** What the server says about itself: version and whether the demo data set is loaded. */
export interface AppInfo {
  version: string;
  demo: boolean;
}

export async function fetchAppInfo(): Promise<AppInfo> {
  const response = await fetch('/api/app-info', { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`GET /api/app-info answered ${response.status}`);
  return (await response.json()) as AppInfo;
}
