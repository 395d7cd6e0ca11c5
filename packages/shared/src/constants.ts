/** Business constants and limits from the specification, section 9. */

export const DEFAULT_PAGE_SIZE = 50;

/** The product's name as Japanese users see it (mail, documents): the web app's `app.name` in ja.json. */
export const PRODUCT_NAME_JA = 'ねむりモニター';
export const TRANSACTION_MAX_ATTEMPTS = 5;

export const LATITUDE_RANGE = { min: -90, max: 90 } as const;
export const LONGITUDE_RANGE = { min: -180, max: 180 } as const;

/** Service worker update check: on start and then every 24 hours. */
export const UPDATE_CHECK_INTERVAL_MS = 86_400_000;

/** Notification defaults: 0 means the notification stays until the app removes it. */
export const NOTIFICATION_DEFAULT_TIMEOUT_MS = 5000;
export const NOTIFICATION_PERSISTENT_TIMEOUT_MS = 0;
export const NOTIFICATION_DEFAULT_POSITION = 'bottom-center';
export const UPDATE_NOTICE_POSITION = 'top-center';

/** Icon size presets in pixels. */
export const ICON_SIZES = { xs: 18, sm: 24, md: 32, lg: 38, xl: 46 } as const;
export type IconSize = keyof typeof ICON_SIZES;

/** Dates `YYYY/MM/DD`, 24-hour time, weeks start on Sunday, Asia/Tokyo unless a domain says otherwise. */
export const DATE_FORMAT = 'YYYY/MM/DD';
export const TIME_FORMAT = 'HH:mm';
export const DATE_TIME_FORMAT = `${DATE_FORMAT} ${TIME_FORMAT}`;
export const FIRST_DAY_OF_WEEK = 0;
export const DEFAULT_TIME_ZONE = 'Asia/Tokyo';

export const LANGUAGES = ['ja', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'ja';

export const DEFAULT_COLOR_SCHEME = 'dark';

/** Passwords: at least 8 characters (identity issue); the server enforces it, forms check it early. */
export const MIN_PASSWORD_LENGTH = 8;

/** An e-mail address as forms check it and the e-mail change takes it (emailChange.ts): something@something.tld, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
