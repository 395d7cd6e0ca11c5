/** GET /api/app-info: what the sign-in page may know before anyone signs in. */
import { z } from 'zod/v3';

export const SOCIAL_PROVIDER_IDS = ['google', 'line'] as const;
export type SocialProviderId = (typeof SOCIAL_PROVIDER_IDS)[number];

export const appInfoResponseSchema = z
  .object({
    version: z.string(),
    /** Whether this installation holds the demo data set (then the sign-in page lists the demo accounts). */
    demo: z.boolean(),
    /** Social sign-in providers this installation offers (configured with a client id). */
    socialProviders: z.array(z.enum(SOCIAL_PROVIDER_IDS)),
  })
  .strict();
export type AppInfoResponse = z.infer<typeof appInfoResponseSchema>;
