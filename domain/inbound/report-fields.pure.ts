// RFC 3464 delivery-status and RFC 5965 feedback-report bodies: groups of header-like fields
// separated by blank lines (continuation lines folded), names case-insensitive.

export type FieldGroup = Map<string, string>;

/** The groups of fields of a `message/delivery-status` or `message/feedback-report` part. */
export function fieldGroups(text: string): FieldGroup[] {
  const groups: FieldGroup[] = [];
  let group: FieldGroup = new Map();
  let last: string | undefined;
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (line.trim() === '') {
      if (group.size > 0) groups.push(group);
      group = new Map();
      last = undefined;
    } else if (/^[ \t]/.test(line) && last) {
      group.set(last, `${group.get(last) ?? ''} ${line.trim()}`);
    } else {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      last = line.slice(0, colon).trim().toLowerCase();
      // The first of a repeated field stands (a report names one recipient per group).
      if (!group.has(last)) group.set(last, line.slice(colon + 1).trim());
    }
  }
  if (group.size > 0) groups.push(group);
  return groups;
}

/** `rfc822; a@b.example` → `a@b.example` (the address type dropped, angle brackets too). */
export function addressOfField(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const address = (value.includes(';') ? value.slice(value.indexOf(';') + 1) : value)
    .trim()
    .replace(/^<|>$/g, '')
    .trim()
    .toLowerCase();
  return address.includes('@') ? address : undefined;
}

/** The first RFC 3463 enhanced status code in a text (`5.1.1`), if any. */
export function statusIn(text: string | undefined): string | undefined {
  return text?.match(/\b([245])\.(\d{1,3})\.(\d{1,3})\b/)?.[0];
}
