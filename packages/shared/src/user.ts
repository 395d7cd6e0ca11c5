import type { AccessLevel } from './roles.ts';

/** Provider names of the specification: `email`, `line`, `google`, `saml.*` and `oidc.*` ids. */
export type ProviderId = 'email' | 'line' | 'google' | `saml.${string}` | `oidc.${string}` | 'anonymous';

export interface LoginProvider {
  provider: ProviderId;
  uid: string;
}

export interface EnrolledSecondFactor {
  kind: 'totp';
  enrolledAt: string;
}

/**
 * The signed-in user object the web app works with (PRODUCT.md section 7). `accessLevel` is 0
 * only while the user's domain requires a second factor that the user has not enrolled.
 */
export interface SignedInUser {
  uid: string;
  displayName: string | null;
  email: string | null;
  phoneNumber: string | null;
  photoURL: string | null;
  providerId: ProviderId;
  isEmailVerified: boolean;
  isAnonymous: boolean;
  loginProviders: LoginProvider[];
  accessLevel: AccessLevel;
  domainId: string | null;
  rootDomainId: string | null;
  singleTimeToken: string | null;
  mfas: EnrolledSecondFactor[];
  signInTime: string;
  /** Whether the user's domain requires a second factor (then it cannot be turned off). Not in the specification's list: the account screen needs it. */
  secondFactorRequired: boolean;
}

/** What `GET /api/me` answers: the current user, or null when nobody is signed in. */
export interface CurrentUserResponse {
  user: SignedInUser | null;
}
