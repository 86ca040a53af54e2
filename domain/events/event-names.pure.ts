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
