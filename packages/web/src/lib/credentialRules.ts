/** Checked in the form for a quick answer; the server applies its own rules and is the authority. */
export { EMAIL_PATTERN, MIN_PASSWORD_LENGTH } from '@nemuri/shared/constants';
