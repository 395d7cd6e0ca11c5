import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { App } from './app/App.tsx';
import { buildRoutes } from './app/routes.tsx';
import { runStartup } from './app/startup.ts';
import { loadDeviceParser } from './lib/deviceParser.ts';
import { clientTakingEarlyAnswer } from './lib/http/earlyAnswer.ts';
import { initTranslations, storedLanguage } from './lib/i18n.ts';
import { fetchCurrentUser, setCurrentUser } from './lib/session.ts';

async function start(): Promise<void> {
  // Made first: the router starts fetching the code of the page being opened (its lazy routes) at
  // once, while the translations and the signed-in user load beside it.
  const router = createBrowserRouter(buildRoutes());
  await runStartup([
    { name: 'translations', run: () => initTranslations(storedLanguage(), 'firstPage') },
    { name: 'backend client', run: async () => setCurrentUser(await fetchCurrentUser(clientTakingEarlyAnswer('/api/me'))) },
  ]);
  const container = document.getElementById('root');
  if (!container) throw new Error('#root is missing from index.html');
  createRoot(container).render(
    <StrictMode>
      <App router={router} />
    </StrictMode>,
  );
  // After the first page: no screen needs the parser for its first paint, and on a slow network
  // its module would share the line with what the first page needs.
  await runStartup([{ name: 'parser', run: async () => void (await loadDeviceParser()) }]);
}

void start();
