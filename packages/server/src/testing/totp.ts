/** Authenticator-app codes for second-factor tests (otpauth, as an app would compute them). */
import { URI, type TOTP } from 'otpauth';

/** The TOTP of an `otpauth://` URI the server handed out at enrolment. */
export function totpOf(uri: string): TOTP {
  const parsed = URI.parse(uri);
  if (!('period' in parsed)) throw new Error(`not a TOTP URI: ${uri}`);
  return parsed;
}

/** A code that is not the current one (nor the neighbouring ones a verifier may accept). */
export function wrongCode(totp: TOTP): string {
  const valid = new Set([-1, 0, 1].map((step) => totp.generate({ timestamp: Date.now() + step * totp.period * 1000 })));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}
