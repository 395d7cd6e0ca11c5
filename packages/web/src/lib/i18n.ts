import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@nemuri/shared/constants';

const LANGUAGE_STORAGE_KEY = 'nemuri-language';

type Translations = Record<string, unknown>;

// One chunk per language, fetched when that language is first used: the first page carries only
// the active language (the files have the same keys, app/screens.test.ts keeps them in step, so no
// fallback language needs to be loaded beside it).
const TRANSLATION_FILES: Record<Language, () => Promise<{ default: Translations }>> = {
  ja: () => import('../locales/ja.json'),
  en: () => import('../locales/en.json'),
};

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

async function translationsOf(language: Language): Promise<Translations> {
  return (await TRANSLATION_FILES[language]()).default;
}

export async function initTranslations(language: Language = storedLanguage()): Promise<void> {
  const translation = await translationsOf(language);
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
    });
  } else {
    i18next.addResourceBundle(language, 'translation', translation, true, true);
    await i18next.changeLanguage(language);
  }
  document.documentElement.lang = language;
}

export async function changeLanguage(language: Language): Promise<void> {
  if (!i18next.hasResourceBundle(language, 'translation')) i18next.addResourceBundle(language, 'translation', await translationsOf(language));
  await i18next.changeLanguage(language);
  document.documentElement.lang = language;
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Private browsing may refuse storage; the choice then lasts for this page only.
  }
}

export { i18next };
