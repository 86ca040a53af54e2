/** The template variables an email to a contact gets for its subscription links. */
export const SUBSCRIPTION_LINK_VARIABLES = [
  'unsubscribeUrl',
  'subscribeUrl',
  'manageUrl',
  /** Confirms a double opt-in; signed only for a template that names it. */
  'confirmUrl',
] as const;
export type SubscriptionLink = (typeof SUBSCRIPTION_LINK_VARIABLES)[number];
