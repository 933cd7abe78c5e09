import { z } from 'zod';
import { profileFieldSchema } from './validation.js';

/** Where a subscription was bought; the site notes Apple IAP and Google Play (product.md §2). */
export const SOURCE_TYPES = ['Web', 'Voucher', 'Apple IAP', 'Google Play'] as const;

export const localizedNameSchema = z.object({ Language: z.enum(['en', 'mn']), Value: z.string() });

/** product.md §3 "Subscription"; only the first entry of a profile's list is used by the site. */
export const subscriptionSchema = z
  .object({
    SubscriptionId: z.string(),
    OwnerId: z.string(),
    StartDate: z.string().describe('ISO 8601'),
    EndDate: z.string().describe('ISO 8601'),
    IsAutoRenew: z.boolean(),
    PackageCost: z.object({
      /** Display names; the first Value is the default display name. */
      Name: z.array(localizedNameSchema),
      MerchantCode: z.string(),
      AllowShare: z.boolean(),
      MaxSharedUsers: z.number().int(),
    }),
    Source: z.object({ SourceType: z.enum(SOURCE_TYPES) }),
    /** Whether the signed-in user holds it as the owner or as an invited member. */
    Role: z.enum(['owner', 'member']),
  })
  .describe('Subscription');

export type SubscriptionView = z.infer<typeof subscriptionSchema>;

/** product.md §3 "Profile (read)" plus the edit-state fields. */
export const profileSchema = z
  .object({
    UserId: z.string(),
    FirstName: z.string(),
    LastName: z.string(),
    DisplayName: z.string(),
    PrimaryEmail: z.string().nullable(),
    /** An address the user asked to change to; it takes effect once its code is entered. */
    PendingEmail: z.string().nullable(),
    PhoneNumber: z.string().nullable(),
    /** A number the user asked to change to; it takes effect once its code is entered. */
    PendingPhone: z.string().nullable(),
    /** The account has a password (e-mail accounts): it can change it or prove itself with it. */
    HasPassword: z.boolean(),
    IsPublic: z.boolean(),
    Language: z.string(),
    BirthYear: z.number().int().nullable(),
    Gender: z.string().nullable(),
    OptedIn: z.boolean(),
    AudioQuality: z.string(),
    IsVerified: z.boolean(),
    UserCentricsControllerID: z.string(),
    Iso2CountryCode: z.string().nullable(),
    TestUser: z.boolean(),
    Tags: z.array(z.string()),
    Subscriptions: z.array(subscriptionSchema),
    /**
     * When the last Premium period the user owned ended (ISO 8601), or null if they never had
     * one: with no current subscription, the site tells a lapsed listener it ended, not "not yet".
     */
    PremiumEndedAt: z.string().nullable(),
  })
  .describe('Profile');

export type Profile = z.infer<typeof profileSchema>;

/**
 * `PATCH /api/users/me/details`: the site sends its whole form state (product.md §3); only the
 * editable fields are read, each at most 50 characters (product.md §5).
 */
export const profileDetailsSchema = z.object({
  FirstName: profileFieldSchema.optional(),
  LastName: profileFieldSchema.optional(),
  Email: profileFieldSchema.optional(),
});

export { isSubscriptionActive } from './premium-rules.js';
