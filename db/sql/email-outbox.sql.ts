// The email row is the outbox the delivery lanes drain. Every source of mail (a transactional
// send, a campaign batch, a campaign's test send, a workflow's SEND_EMAIL step) writes it through
// this module: one INSERT whose column list is declared here, one rule for who may receive mail,
// one rule for what it tracks, one builder of the variables a template renders with.

import {
  DEFAULT_TRACKING,
  TRACKING_KINDS,
  type TrackingKind,
} from '../../domain/tracking/tracking-choice.pure.js';

/**
 * The columns of an outbox row, in the order the INSERT names them: `true` for the ones every
 * writer gives a value for, `false` for those with a default (NULL) that only some sources set.
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
  // Decided as the row is written (trackingSql), so a retried or late email keeps the choice.
  open_tracking: true,
  click_tracking: true,
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

/** The outbox column that keeps each tracking kind's choice. */
export const TRACKING_COLUMN = {
  opens: 'open_tracking',
  clicks: 'click_tracking',
} as const satisfies Record<TrackingKind, OutboxColumn>;

const perKind = (expression: (kind: TrackingKind) => string) =>
  Object.fromEntries(TRACKING_KINDS.map((kind) => [kind, expression(kind)])) as Record<
    TrackingKind,
    string
  >;

/**
 * What an email tracks, as SQL expressions for its TRACKING_COLUMNs: the most specific setting
 * given wins. `levels` are the settings above the project's, most specific first (a send's
 * `tracking`, a campaign's, a template's columns), each a SQL boolean that is NULL where that
 * level leaves the kind; then the project's `settings.tracking` (of the project `projectId`
 * names), then DEFAULT_TRACKING.
 */
export function trackingSql({
  levels,
  projectId,
}: {
  levels: Record<TrackingKind, string>[];
  projectId: string;
}): Record<(typeof TRACKING_COLUMN)[TrackingKind], string> {
  const choice = perKind(
    (kind) =>
      `coalesce(${[
        ...levels.map((level) => level[kind]),
        `(SELECT (settings #>> '{tracking,${kind}}')::boolean FROM projects WHERE id = ${projectId})`,
        String(DEFAULT_TRACKING[kind]),
      ].join(', ')})`,
  );
  return { open_tracking: choice.opens, click_tracking: choice.clicks };
}

/** A level of trackingSql read from the row `alias` (a campaign's or a template's columns). */
export const trackingLevelOf = (alias: string) =>
  perKind((kind) => `${alias}.${TRACKING_COLUMN[kind]}`);

/** A level of trackingSql: the setting of the template `templateId` names (NULL for none). */
export const templateTrackingLevel = (templateId: string) =>
  perKind((kind) => `(SELECT ${TRACKING_COLUMN[kind]} FROM templates WHERE id = ${templateId})`);

/** A writer's own values that track nothing (a campaign's test send). */
export const UNTRACKED_OUTBOX_VALUES = { open_tracking: 'false', click_tracking: 'false' } as const;

/**
 * Joins the project's suppression of one address as `s`: a hash join in set-based statements, an
 * index probe for one recipient. `blockedReasonSql` reads it.
 */
export const suppressionJoinSql = ({ projectId, email }: { projectId: string; email: string }) =>
  `LEFT JOIN suppressions s ON s.project_id = ${projectId} AND s.email = ${email}`;

/**
 * Who may receive this mail: NULL when the recipient may, else why not: the reason the address
 * is on the suppression list (a bounce, a complaint...); `unconfirmed` when the contact waits for
 * its double opt-in confirmation (`awaitingOptIn`, a SQL boolean: `optInPendingSql` of the
 * contact for campaign and workflow mail, of any type, which such a contact never gets; `false`
 * for mail sent to the address on purpose: a send, a test send, the confirmation email itself);
 * or `unsubscribed` when being unsubscribed blocks this mail (`unsubscribedBlocks`, a SQL
 * boolean: marketing mail) and the contact is (`subscribed`, a SQL boolean). Needs
 * `suppressionJoinSql`'s `s`.
 */
export const blockedReasonSql = ({
  unsubscribedBlocks,
  subscribed,
  awaitingOptIn,
}: {
  unsubscribedBlocks: string;
  subscribed: string;
  awaitingOptIn: string;
}) => `coalesce(s.reason, CASE WHEN ${awaitingOptIn} THEN 'unconfirmed'
                              WHEN ${unsubscribedBlocks} AND NOT ${subscribed}
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
  awaitingOptIn,
}: {
  projectId: string;
  email: string;
  unsubscribedBlocks: string;
  subscribed: string;
  awaitingOptIn: string;
}) => `${suppressionJoinSql({ projectId, email })}
       CROSS JOIN LATERAL (SELECT ${blockedReasonSql({ unsubscribedBlocks, subscribed, awaitingOptIn })} AS reason) r`;

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
