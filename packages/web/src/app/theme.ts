import { createTheme, localStorageColorSchemeManager } from '@mantine/core';

/** Calm at 3 a.m.: muted primary colour, dark by default, Japanese-friendly font stack. */
export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", "Hiragino Sans", "Hiragino Kaku Gothic ProN", "Noto Sans JP", "Yu Gothic UI", Meiryo, sans-serif',
  headings: { fontWeight: '600' },
});

export const colorSchemeManager = localStorageColorSchemeManager({ key: 'nemuri-color-scheme' });
