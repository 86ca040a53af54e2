// The email row is the outbox the delivery lanes drain. Every source of mail (a transactional
// send, a campaign batch, a campaign's test send, a workflow's SEND_EMAIL step) writes it through
// this module: one INSERT whose column list is declared here, one rule for who may receive mail,
// one builder of the variables a template renders with.

/**
 * The columns of an outbox row, in the order the INSERT names them: `true` for the ones every
 * writer gives a value for, `false` for those with a default (NULL, or `tracking` on) that only
 * some sources set.
 */
const OUTBOX_COLUMNS = {
  id: true,
  project_id: true,
  contact_id: true,
  template_id: true,
  domain_id: true,
  to_address: true,
  to_name: false,
  from_address: true,
  from_name: true,
  reply_to: true,
  subject: true,
  body: true,
  type: true,
  status: true,
  headers: true,
  variables: true,
  attachment_ids: true,
  suppression_reason: false,
  delivery_queue: true,
  created_at: true,
  campaign_id: false,
  workflow_id: false,
  execution_id: false,
  step_id: false,
  tracking: false,
} as const;

type OutboxColumn = keyof typeof OUTBOX_COLUMNS;
type RequiredColumn = {
  [C in OutboxColumn]: (typeof OUTBOX_COLUMNS)[C] extends true ? C : never;
}[OutboxColumn];
type OptionalColumn = Exclude<OutboxColumn, RequiredColumn>;

/** SQL expressions, over the statement's FROM, for the new rows' columns. */
export type OutboxValues = Record<RequiredColumn, string> & Partial<Record<OptionalColumn, string>>;

/**
 * The one `INSERT INTO emails ... SELECT`: `values` names each column's expression over `from`
 * (a FROM clause with its joins and WHERE), `onConflict` the source's uniqueness (per campaign
 * and contact, per execution and step), `returning` what the caller reads back.
 */
export function insertEmailsSql({
  values,
  from,
  onConflict = '',
  returning,
}: {
  values: OutboxValues;
  from: string;
  onConflict?: string;
  returning: string;
}): string {
  const columns = (Object.keys(OUTBOX_COLUMNS) as OutboxColumn[]).filter(
    (column) => values[column] !== undefined,
  );
  return `INSERT INTO emails (${columns.join(', ')})
       SELECT ${columns.map((column) => values[column]).join(', ')}
         ${from}
       ${onConflict}
       RETURNING ${returning}`;
}

/**
 * Joins the project's suppression of one address as `s`: a hash join in set-based statements, an
 * index probe for one recipient. `blockedReasonSql` reads it.
 */
export const suppressionJoinSql = ({ projectId, email }: { projectId: string; email: string }) =>
  `LEFT JOIN suppressions s ON s.project_id = ${projectId} AND s.email = ${email}`;

/**
 * Who may receive this mail: NULL when the recipient may, else why not: the reason the address
 * is on the suppression list (a bounce, a complaint...), or `unsubscribed` when being
 * unsubscribed blocks this mail (`unsubscribedBlocks`, a SQL boolean: marketing mail) and the
 * contact is (`subscribed`, a SQL boolean). Needs `suppressionJoinSql`'s `s`.
 */
export const blockedReasonSql = ({
  unsubscribedBlocks,
  subscribed,
}: {
  unsubscribedBlocks: string;
  subscribed: string;
}) => `coalesce(s.reason, CASE WHEN ${unsubscribedBlocks} AND NOT ${subscribed}
                              THEN 'unsubscribed' END)`;

/** The status an outbox row starts in, from `blockedReasonSql`'s answer. */
export const outboxStatusSql = (blockedReason: string) =>
  `CASE WHEN ${blockedReason} IS NULL THEN 'QUEUED' ELSE 'SUPPRESSED' END`;

/**
 * For a source that judges its one recipient as it writes the row: the joins that name
 * `blockedReasonSql`'s answer `r.reason`, which JUDGED_OUTBOX_VALUES read.
 */
export const judgeRecipientSql = ({
  projectId,
  email,
  unsubscribedBlocks,
  subscribed,
}: {
  projectId: string;
  email: string;
  unsubscribedBlocks: string;
  subscribed: string;
}) => `${suppressionJoinSql({ projectId, email })}
       CROSS JOIN LATERAL (SELECT ${blockedReasonSql({ unsubscribedBlocks, subscribed })} AS reason) r`;

/** The outbox columns `judgeRecipientSql`'s `r.reason` decides. */
export const JUDGED_OUTBOX_VALUES = {
  status: outboxStatusSql('r.reason'),
  suppression_reason: 'r.reason',
} as const;

/**
 * The variables a template renders with: the contact's data, under the caller's own variables
 * (when given), under the contact's email and id and their `svc_` aliases, which always win.
 */
export const templateVariablesSql = ({
  data,
  extra,
  email,
  id,
}: {
  data: string;
  extra?: string;
  email: string;
  id: string;
}) =>
  `${data}${extra ? ` || ${extra}` : ''} || jsonb_build_object('email', ${email}, 'id', ${id},
     'svc_id', ${id}, 'svc_email', ${email})`;
