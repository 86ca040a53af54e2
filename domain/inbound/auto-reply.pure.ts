const OUT_OF_OFFICE =
  /out of (the )?office|automatic reply|auto(matic)?[- ]?(reply|response)|autoreply|vacation|away from (the |my )?office|abwesenheit|absence/i;

/**
 * An automatic answer to the mail (RFC 3834 `Auto-Submitted: auto-replied`, `X-Autoreply`,
 * `X-Autorespond`, `Precedence: auto_reply`, an out-of-office subject): never a bounce or
 * complaint. Header names are lower case, as postal-mime gives them.
 */
export function isAutoReply({
  headers,
  subject,
}: {
  headers: { key: string; value: string }[];
  subject: string;
}): boolean {
  const value = (name: string): string | undefined =>
    headers
      .find((h) => h.key === name)
      ?.value.trim()
      .toLowerCase();
  const autoSubmitted = value('auto-submitted');
  return (
    (autoSubmitted !== undefined && autoSubmitted !== 'no') ||
    value('x-autoreply') !== undefined ||
    value('x-autorespond') !== undefined ||
    value('precedence') === 'auto_reply' ||
    OUT_OF_OFFICE.test(subject)
  );
}
