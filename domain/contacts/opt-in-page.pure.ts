/**
 * The pages behind a confirmation link. ask: the button that confirms (opening a link changes
 * nothing: mail scanners open them). confirmed: this click subscribed the contact.
 * already-subscribed: it was subscribed before (a link used twice). nothing-to-confirm: it does
 * not wait for a confirmation any more (unsubscribed or changed by the project since). expired:
 * the link is past its 7 days and the contact still waits; a button asks for a new link.
 * new-link-sent: a new confirmation email is on its way.
 */
export const OPT_IN_PAGES = [
  'ask',
  'confirmed',
  'already-subscribed',
  'nothing-to-confirm',
  'expired',
  'new-link-sent',
] as const;
export type OptInPage = (typeof OPT_IN_PAGES)[number];

/** What a page shows: which one, whose address, for which project. */
export interface OptInOutcome {
  page: OptInPage;
  email: string;
  projectName: string;
}

/** The page for a contact's state when the link did not (or could not) confirm it. */
export function pageForState(
  state: { subscribed: boolean; pending: boolean },
  { expired }: { expired: boolean },
): OptInPage {
  if (state.subscribed) return 'already-subscribed';
  if (!state.pending) return 'nothing-to-confirm';
  return expired ? 'expired' : 'ask';
}
