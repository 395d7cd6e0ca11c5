// The web app's layers, kept by the linter (issue 23): app → features → components/lib, and no feature
// reaching into another. A screen that shows parts of several features is composed in app/; what two
// features need moves down into components/ (UI) or lib/ (logic).
import { dirname, relative, resolve, sep } from 'node:path';

const WEB_SRC = resolve(import.meta.dirname, '../packages/web/src');

/** 'app', 'components', 'lib', 'features/<name>' … of a path under packages/web/src, or null outside it. */
function layerOf(path) {
  const inside = relative(WEB_SRC, path);
  if (inside.startsWith('..')) return null;
  const [top, second] = inside.split(sep);
  return top === 'features' ? `features/${second}` : top;
}

// testing/ renders whole routes for the tests, so it may import app/.
const LOWER = new Set(['components', 'lib', 'locales']);

function problem(from, to, isTest) {
  if (from === null || to === null || from === to) return null;
  if (from.startsWith('features/')) {
    if (to.startsWith('features/'))
      return `a feature must not import another feature (${from} → ${to}): compose them in app/, or move what both need to components/ or lib/`;
    if (to === 'app' && !isTest) return `a feature must not import app/ (${from} → app): move what it needs to lib/`;
    return null;
  }
  if (LOWER.has(from) && (to === 'app' || to.startsWith('features/'))) return `${from}/ is below the features: it must not import ${to}`;
  return null;
}

export const featureBoundaries = {
  meta: { type: 'problem', docs: { description: 'app → features → components/lib; no feature imports another' }, schema: [] },
  create(context) {
    const file = context.filename;
    const from = layerOf(file);
    if (from === null) return {};
    const isTest = /\.test\.tsx?$/.test(file);
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const message = problem(from, layerOf(resolve(dirname(file), source)), isTest);
      if (message) context.report({ node, message });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};
