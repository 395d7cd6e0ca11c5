import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { featureBoundaries } from './eslint/featureBoundaries.js';
import { webServerCalls, webInlineQueries } from './eslint/webDataAccess.js';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '**/dev-dist/**', 'test-results/**', 'packages/parser/assembly/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['packages/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, nemuri: { rules: { 'feature-boundaries': featureBoundaries } } },
    rules: { ...reactHooks.configs.recommended.rules, 'nemuri/feature-boundaries': 'error' },
  },
  webServerCalls,
  webInlineQueries,
);
