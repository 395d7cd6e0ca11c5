/**
 * The product version shown in help and the account menu (the specification's service worker
 * version label). It must equal the root package.json version; a test keeps the two in step.
 */
export const APP_VERSION = '0.8.32';
