/**
 * Each language's translations are fetched in two parts: what the first page of a visit draws (the
 * shell, the guard, the sign-in screen) and the rest (every other screen's sections). On a slow
 * mobile network the first page is bound by the bytes it downloads, and the rest is about four
 * fifths of the file. The language file stays one source (`ja.json`); the build makes each part
 * from it (translationPartsPlugin.ts, in the build and the web tests).
 */
export const TRANSLATION_PARTS = ['first', 'rest'] as const;
export type TranslationPart = (typeof TRANSLATION_PARTS)[number];

/** The top-level sections the first page uses; `app/firstPageTranslations.test.tsx` renders the sign-in screen with only these. */
export const FIRST_PAGE_SECTIONS: readonly string[] = [
  'app',
  'shell',
  'auth',
  'errors',
  'notFound',
  'notices',
  'guard',
  'nav',
  'screen',
  'routes',
  'roles',
  'languages',
];

/** The sections of `translations` that belong to `part`. */
export function translationPart(translations: Record<string, unknown>, part: TranslationPart): Record<string, unknown> {
  const first = new Set(FIRST_PAGE_SECTIONS);
  return Object.fromEntries(Object.entries(translations).filter(([section]) => first.has(section) === (part === 'first')));
}
