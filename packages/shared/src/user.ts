import { z } from 'zod/v3';
import { isAccessLevel } from './roles.ts';

const SSO_PROVIDER = /^(saml|oidc)\..+$/;

/** Provider names of the specification: `email`, `line`, `google`, `saml.*` and `oidc.*` ids. */
export const providerIdSchema = z.union([
  z.enum(['email', 'line', 'google', 'anonymous']),
  // The regex is what the OpenAPI document shows; the refinement keeps the template literal type.
  z
    .string()
    .regex(SSO_PROVIDER)
    .refine((id): id is `saml.${string}` | `oidc.${string}` => SSO_PROVIDER.test(id)),
]);
export type ProviderId = z.infer<typeof providerIdSchema>;

export const loginProviderSchema = z.object({ provider: providerIdSchema, uid: z.string() }).strict();
export type LoginProvider = z.infer<typeof loginProviderSchema>;

export const enrolledSecondFactorSchema = z.object({ kind: z.literal('totp'), enrolledAt: z.string() }).strict();
export type EnrolledSecondFactor = z.infer<typeof enrolledSecondFactorSchema>;

/**
 * The signed-in user object the web app works with (PRODUCT.md section 7). `accessLevel` is 0
 * only while the user's domain requires a second factor that the user has not enrolled.
 */
export const signedInUserSchema = z
  .object({
    uid: z.string(),
    displayName: z.string().nullable(),
    email: z.string().nullable(),
    phoneNumber: z.string().nullable(),
    photoURL: z.string().nullable(),
    providerId: providerIdSchema,
    isEmailVerified: z.boolean(),
    isAnonymous: z.boolean(),
    loginProviders: z.array(loginProviderSchema),
    /** One of the role table's levels (roles.ts ROLE_LEVELS). */
    accessLevel: z.number().int().refine(isAccessLevel, 'not a level of the role table'),
    domainId: z.string().nullable(),
    rootDomainId: z.string().nullable(),
    singleTimeToken: z.string().nullable(),
    mfas: z.array(enrolledSecondFactorSchema),
    signInTime: z.string(),
    /** Whether the user's domain requires a second factor (then it cannot be turned off). Not in the specification's list: the account screen needs it. */
    secondFactorRequired: z.boolean(),
  })
  .strict();
export type SignedInUser = z.infer<typeof signedInUserSchema>;

/** What `GET /api/me` answers: the current user, or null when nobody is signed in. */
export const currentUserResponseSchema = z.object({ user: signedInUserSchema.nullable() }).strict();
export type CurrentUserResponse = z.infer<typeof currentUserResponseSchema>;
