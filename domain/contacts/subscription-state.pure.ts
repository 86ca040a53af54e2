/**
 * Where a contact stands with the project's marketing mail. `pending`: it asked to subscribe
 * through the public key while the project asks for a confirmation (double opt-in), and has not
 * clicked the link in the confirmation email yet; until it does it is not subscribed and gets
 * no campaign or workflow email.
 */
export const SUBSCRIPTION_STATES = ['subscribed', 'pending', 'unsubscribed'] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];
