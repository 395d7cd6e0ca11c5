/** GET /api/app-info: what the sign-in page may know before anyone signs in. */
export interface AppInfoResponse {
  version: string;
  /** Whether this installation holds the demo data set (then the sign-in page lists the demo accounts). */
  demo: boolean;
  /** Social sign-in providers this installation offers (configured with a client id). */
  socialProviders: SocialProviderId[];
}

export type SocialProviderId = 'google' | 'line';
