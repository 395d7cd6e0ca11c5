import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@nemuri/shared/constants';
import type { TranslationPart } from '../locales/translationParts.ts';

const LANGUAGE_STORAGE_KEY = 'nemuri-language';

type Translations = Record<string, unknown>;
type TranslationFile = () => Promise<{ default: Translations }>;

// Two chunks per language (locales/translationParts.ts), fetched when that language is first used:
// the first page carries only the active language's first part (the files have the same keys,
// app/screens.test.ts keeps them in step, so no fallback language needs to be loaded beside it).
const TRANSLATION_FILES: Record<Language, Record<TranslationPart, TranslationFile>> = {
  ja: { first: () => import('../locales/ja.json?translations=first'), rest: () => import('../locales/ja.json?translations=rest') },
  en: { first: () => import('../locales/en.json?translations=first'), rest: () => import('../locales/en.json?translations=rest') },
};

/** Per language, the rest of its translations once asked for: added to i18next when they arrive. */
const restOfLanguage = new Map<Language, Promise<void>>();
/** The language `initTranslations` is starting with, before i18next knows it. */
let startingLanguage: Language | undefined;
/** Resolves once i18next has started: the rest of a language can arrive before the first part. */
let markStarted: () => void = () => undefined;
const started = new Promise<void>((resolve) => {
  markStarted = resolve;
});

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The language the user chose last time on this browser, else Japanese. */
export function storedLanguage(): Language {
  try {
    const value = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(value) ? value : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

async function translationsOf(language: Language, part: TranslationPart): Promise<Translations> {
  return (await TRANSLATION_FILES[language][part]()).default;
}

function loadRestOf(language: Language): Promise<void> {
  let loading = restOfLanguage.get(language);
  if (loading === undefined) {
    loading = Promise.all([translationsOf(language, 'rest'), started]).then(([translation]) => {
      i18next.addResourceBundle(language, 'translation', translation, true, true);
    });
    // A failed download may be retried by the next screen that waits for it.
    loading.catch(() => restOfLanguage.delete(language));
    restOfLanguage.set(language, loading);
  }
  return loading;
}

/**
 * Resolves when the current language's translations are all loaded. Every screen but the sign-in
 * page waits for this before it draws (app/screens.ts), so no screen shows a key instead of its text.
 */
export function allTranslations(): Promise<void> {
  // The router may ask before i18next has started (main.tsx starts both at once).
  const language = i18next.isInitialized ? i18next.language : (startingLanguage ?? storedLanguage());
  return loadRestOf(isLanguage(language) ? language : DEFAULT_LANGUAGE);
}

/**
 * Starts i18next with `language`. `firstPage`: only the first page's part is awaited and the rest
 * follows in the background (the app's start); otherwise all of it (tests, and a language change).
 */
export async function initTranslations(language: Language = storedLanguage(), parts: 'all' | 'firstPage' = 'all'): Promise<void> {
  startingLanguage = language;
  const translation = await translationsOf(language, 'first');
  if (!i18next.isInitialized) {
    await i18next.use(initReactI18next).init({
      resources: { [language]: { translation } },
      lng: language,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      // Other languages are added when chosen (changeLanguage), not all at start.
      partialBundledLanguages: true,
      interpolation: { escapeValue: false },
      returnNull: false,
      // Parts of the shell drawn before the rest of the translations arrive draw again when it does.
      react: { bindI18nStore: 'added' },
    });
  } else {
    i18next.addResourceBundle(language, 'translation', translation, true, true);
    await i18next.changeLanguage(language);
  }
  document.documentElement.lang = language;
  markStarted();
  const rest = loadRestOf(language);
  if (parts === 'all') await rest;
  else rest.catch(() => undefined);
}

export async function changeLanguage(language: Language): Promise<void> {
  if (!i18next.hasResourceBundle(language, 'translation')) i18next.addResourceBundle(language, 'translation', await translationsOf(language, 'first'));
  await loadRestOf(language);
  await i18next.changeLanguage(language);
  document.documentElement.lang = language;
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Private browsing may refuse storage; the choice then lasts for this page only.
  }
}

export { i18next };
