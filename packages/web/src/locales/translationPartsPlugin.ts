import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { TRANSLATION_PARTS, translationPart, type TranslationPart } from './translationParts.ts';

const TRANSLATION_PART_QUERY = /^(.+\.json)\?translations=(\w+)$/;
/** The module of one part: `\0…/locales/ja-first.translations.js` (a name of its own: not read as JSON again). */
const TRANSLATION_PART_ID = /^\0(.+)-(\w+)\.translations\.js$/;

/**
 * `import('…/ja.json?translations=first')`: one part of a language file (src/locales/translationParts.ts),
 * so that the first page downloads only the sections it draws. Used by the build (vite.config.ts)
 * and the web tests (vitest.config.ts).
 */
export function translationParts(): Plugin {
  return {
    name: 'nemuri-translation-parts',
    enforce: 'pre',
    resolveId(source, importer) {
      const match = TRANSLATION_PART_QUERY.exec(source);
      if (match === null || importer === undefined) return null;
      const [, file, part] = match as unknown as [string, string, string];
      if (!(TRANSLATION_PARTS as readonly string[]).includes(part)) throw new Error(`${source}: no translation part "${part}"`);
      return `\0${resolve(dirname(importer), file).replace(/\.json$/, '')}-${part}.translations.js`;
    },
    async load(id) {
      const match = TRANSLATION_PART_ID.exec(id);
      if (match === null) return null;
      const [, base, part] = match as unknown as [string, string, TranslationPart];
      const file = `${base}.json`;
      this.addWatchFile(file);
      const translations = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      return `export default ${JSON.stringify(translationPart(translations, part))};`;
    },
  };
}
