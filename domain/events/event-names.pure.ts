// Names the service emits itself; a client may not track them.
const RESERVED_EVENT_PATTERNS = [
  /^email\./,
  /^contact\.subscribed$/,
  /^contact\.unsubscribed$/,
  /^segment\.[^.]+\.(entry|exit)$/,
];

export function isReservedEventName(name: string): boolean {
  return RESERVED_EVENT_PATTERNS.some((pattern) => pattern.test(name));
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
  return EVENT_NAME_ALIASES[name] ?? name;
}
