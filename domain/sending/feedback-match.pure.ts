/**
 * Which emails a delivery report that names a Message-ID (not an email id) is about. A
 * Message-ID is not unique: a message submitted over SMTP keeps its own on every recipient's
 * email, and another project may use the same one. So a report is applied to an email only when
 * it tells that email apart:
 * - with recipients, to each recipient's email with that Message-ID, once; a recipient that
 *   has more than one such email (the same Message-ID sent to the same address twice, in one
 *   project or in two) is undetermined, and none of them changes;
 * - without recipients, to the one email with that Message-ID; several are undetermined.
 */

/** An email with the Message-ID a report names (the lock query's row). */
export interface MessageIdCandidate {
  id: string;
  to_address: string;
}

export interface ReportMatch<T> {
  /** The emails the report is applied to, each once. */
  emails: T[];
  /** True when some of it named more than one email, so nothing was applied for that part. */
  undetermined: boolean;
}

const ANGLE_ADDRESS = /<([^<>]*)>\s*$/;

/**
 * A recipient as a report writes it (`ada@example.com`, or `Ada <ada@example.com>` as SES's
 * `mail.destination` may), lower-cased; undefined when it is no address.
 */
export function reportedAddress(text: string): string | undefined {
  const address = (ANGLE_ADDRESS.exec(text)?.[1] ?? text).trim().toLowerCase();
  return /^[^\s@]+@[^\s@]+$/.test(address) ? address : undefined;
}

/** The distinct addresses of a report's recipients, read with reportedAddress. */
export function reportedAddresses(texts: readonly string[]): string[] {
  const addresses = texts.map(reportedAddress).filter((a): a is string => a !== undefined);
  return [...new Set(addresses)];
}

export function matchReportedEmails<T extends MessageIdCandidate>({
  candidates,
  recipients,
}: {
  candidates: readonly T[];
  /** Lower-case addresses (reportedAddresses); empty when the report names none. */
  recipients: readonly string[];
}): ReportMatch<T> {
  if (recipients.length === 0) {
    const [only, ...others] = candidates;
    if (!only) return { emails: [], undetermined: false };
    return others.length === 0
      ? { emails: [only], undetermined: false }
      : { emails: [], undetermined: true };
  }
  const emails: T[] = [];
  let undetermined = false;
  for (const recipient of new Set(recipients)) {
    const theirs = candidates.filter((c) => c.to_address.toLowerCase() === recipient);
    if (theirs.length === 1) emails.push(theirs[0] as T);
    else if (theirs.length > 1) undetermined = true;
  }
  return { emails, undetermined };
}
