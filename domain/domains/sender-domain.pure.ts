/**
 * The verified domain an address may send from: its own host or a parent of it, the most
 * specific one when several match. Undefined when none does.
 */
export function matchSenderDomain<D extends { domain: string }>(
  verified: D[],
  from: string,
): D | undefined {
  const host = senderHost(from);
  return verified
    .filter((d) => host === d.domain || host.endsWith(`.${d.domain}`))
    .sort((a, b) => b.domain.length - a.domain.length)[0];
}

export const senderHost = (from: string): string =>
  from.slice(from.lastIndexOf('@') + 1).toLowerCase();

/** The field error for a sender address on no verified domain of the project. */
export function unverifiedSenderProblem(
  from: string,
  field = 'from',
): { field: string; message: string; code: string } {
  return {
    field,
    message: `${senderHost(from)} is not a verified domain of this project`,
    code: 'unverified_domain',
  };
}
