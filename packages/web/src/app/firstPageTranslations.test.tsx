/**
 * The first page draws with only the first part of the translations (the rest arrives later): the
 * sign-in page, signed out, rendered through the real route tree with nothing else loaded, must not
 * ask for a single key that part lacks, in either language. And the two parts are the whole file.
 */
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { buildRoutes } from './routes.tsx';
import { theme } from './theme.ts';
import { setCurrentUser } from '../lib/session.ts';
import en from '../locales/en.json';
import ja from '../locales/ja.json';
import { translationPart } from '../locales/translationParts.ts';

describe('the translations in two parts', () => {
  it('splits each language file into two parts that together are the whole file', () => {
    for (const translations of [ja, en] as Record<string, unknown>[]) {
      const first = translationPart(translations, 'first');
      const rest = translationPart(translations, 'rest');
      expect({ ...first, ...rest }).toEqual(translations);
      expect(Object.keys(first).filter((section) => section in rest)).toEqual([]);
      expect(Object.keys(first).length).toBeGreaterThan(0);
    }
  });

  it.each([
    ['ja', ja, 'メールアドレス'],
    ['en', en, 'E-mail address'],
  ] as const)('draws the sign-in page in %s with the first part alone', async (language, translations, emailLabel) => {
    const missing: string[] = [];
    await i18next.use(initReactI18next).init({
      resources: { [language]: { translation: translationPart(translations as Record<string, unknown>, 'first') } },
      lng: language,
      interpolation: { escapeValue: false },
      saveMissing: true,
      missingKeyHandler: (_languages, _namespace, key) => missing.push(key),
    });
    setCurrentUser(null);
    const router = createMemoryRouter(buildRoutes(), { initialEntries: ['/login'] });
    render(
      <MantineProvider theme={theme} defaultColorScheme="dark">
        <RouterProvider router={router} />
      </MantineProvider>,
    );
    expect(await screen.findByLabelText(new RegExp(emailLabel, 'i'))).toBeTruthy();
    expect(missing).toEqual([]);
  });
});
