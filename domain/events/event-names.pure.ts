/** The service's event of a project nearing a monthly cap (it has no contact). */
export const LIMIT_WARNING_EVENT = 'billing.limit_warning';

/**
 * Names the service emits itself, which a client may not track: one POSIX regular expression,
 * read the same by JavaScript and by PostgreSQL (`name !~ ...`).
 */
export const SERVICE_EVENT_NAME_PATTERN = `^(email\\.|contact\\.(subscribed|unsubscribed)$|segment\\.[^.]+\\.(entry|exit)$|${LIMIT_WARNING_EVENT.replace('.', '\\.')}$)`;
const SERVICE_EVENT_NAME = new RegExp(SERVICE_EVENT_NAME_PATTERN);

export function isReservedEventName(name: string): boolean {
  return SERVICE_EVENT_NAME.test(name);
}

// Plunk's names for the email events, accepted wherever a name is read (decisions.md).
const EVENT_NAME_ALIASES: Record<string, string> = {
  'email.open': 'email.opened',
  'email.click': 'email.clicked',
  'email.bounce': 'email.bounced',
  'email.complaint': 'email.complained',
  'email.delivery': 'email.delivered',
};

/** Our name for an event name that may be spelled the Plunk way. */
export function canonicalEventName(name: string): string {
  // An own key only: `constructor` or `toString` would find Object.prototype's functions.
  return Object.hasOwn(EVENT_NAME_ALIASES, name) ? (EVENT_NAME_ALIASES[name] as string) : name;
}
