import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { runStartup } from './app/startup.ts';
import { setDateLocale } from './lib/dates.ts';
import { loadDeviceParser } from './lib/deviceParser.ts';
import { initTranslations, storedLanguage } from './lib/i18n.ts';
import { fetchCurrentUser, setCurrentUser } from './lib/session.ts';

async function start(): Promise<void> {
  const language = storedLanguage();
  // In the background: no screen needs the parser for its first paint.
  const parserReady = runStartup([{ name: 'parser', run: async () => void (await loadDeviceParser()) }]);
  await runStartup([
    { name: 'translations', run: () => initTranslations(language) },
    { name: 'date locale', run: () => setDateLocale(language) },
    { name: 'backend client', run: async () => setCurrentUser(await fetchCurrentUser()) },
  ]);
  const container = document.getElementById('root');
  if (!container) throw new Error('#root is missing from index.html');
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  await parserReady;
}

void start();
