// A language file read in one of its parts (locales/translationParts.ts; the build's plugin picks the sections).
declare module '*.json?translations=first' {
  const translations: Record<string, unknown>;
  export default translations;
}
declare module '*.json?translations=rest' {
  const translations: Record<string, unknown>;
  export default translations;
}
