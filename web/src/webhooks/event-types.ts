/** The service's events, offered as checkboxes; tracked events and segment events are typed. */
export const SERVICE_EVENTS = [
  { type: 'email.sent', label: 'Sent' },
  { type: 'email.delivered', label: 'Delivered' },
  { type: 'email.opened', label: 'Opened' },
  { type: 'email.clicked', label: 'Clicked' },
  { type: 'email.bounced', label: 'Bounced' },
  { type: 'email.complained', label: 'Complained' },
  { type: 'email.failed', label: 'Failed' },
  { type: 'contact.subscribed', label: 'Subscribed' },
  { type: 'contact.unsubscribed', label: 'Unsubscribed' },
] as const;

const SERVICE_TYPES: ReadonlySet<string> = new Set(SERVICE_EVENTS.map((e) => e.type));

export const isServiceEvent = (type: string): boolean => SERVICE_TYPES.has(type);

/** Other event names typed by hand: separated by commas, spaces or new lines. */
export const parseOtherTypes = (text: string): string[] =>
  text
    .split(/[\s,]+/)
    .map((t) => t.trim())
    .filter(Boolean);
