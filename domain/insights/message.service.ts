import { findMessage, listMessageEvents, type MessageRow } from '../../db/sql/messages.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import type { EmailStatus } from '../sending/email-status.pure.js';
import type { EmailType } from '../sending/email-type.pure.js';
import { notFound } from '../shared/errors.js';
import { renderTemplate } from '../templates/template-engine.js';
import type { TrackingChoice } from '../tracking/tracking-choice.pure.js';

/** The most events a message's timeline lists (an open is recorded on every fetch). */
export const MESSAGE_EVENTS_MAX = 100;

export interface MessageView {
  id: string;
  status: EmailStatus;
  type: EmailType;
  to: { email: string; name: string | null };
  from: { email: string | null; name: string | null };
  replyTo: string | null;
  subject: string;
  messageId: string | null;
  error: string | null;
  suppressionReason: string | null;
  contact: { id: string; email: string | null } | null;
  campaign: { id: string; name: string } | null;
  template: { id: string; name: string } | null;
  workflow: { id: string; name: string } | null;
  executionId: string | null;
  /** What it tracks, chosen when it was queued. */
  tracking: TrackingChoice;
  timestamps: {
    queuedAt: string | null;
    sentAt: string | null;
    deliveredAt: string | null;
    openedAt: string | null;
    clickedAt: string | null;
    bouncedAt: string | null;
    complainedAt: string | null;
    unsubscribedAt: string | null;
  };
  html: string | null;
  renderError: string | null;
  events: { id: string; name: string; occurredAt: string; data: Record<string, unknown> }[];
}

const iso = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null);
// A campaign, template or workflow deleted since is not named (as in the activity feed).
const named = (id: string | null, name: string | null) =>
  id && name !== null ? { id, name } : null;

/**
 * The body with the email's own variables, as its recipient read it, without the tracking
 * rewrite or the subscription links (their tokens act on the contact, so none is made here).
 */
function renderBody(row: MessageRow): { html: string | null; renderError: string | null } {
  if (row.body === null) return { html: null, renderError: null };
  try {
    return { html: renderTemplate(row.body, row.variables ?? {}), renderError: null };
  } catch (error) {
    return { html: null, renderError: error instanceof Error ? error.message : String(error) };
  }
}

/** One email of the project with what became of it and its events; another project's is 404. */
export async function getMessage({
  sql,
  projectId,
  emailId,
}: {
  sql: Sql;
  projectId: string;
  emailId: string;
}): Promise<MessageView> {
  const row = await findMessage(sql, { projectId, emailId });
  if (!row) throw notFound('Email');
  const events = row.contact_id
    ? await listMessageEvents(sql, {
        projectId,
        contactId: row.contact_id,
        emailId,
        limit: MESSAGE_EVENTS_MAX,
      })
    : [];
  return {
    id: row.id,
    status: row.status,
    type: row.type,
    to: { email: row.to_address, name: row.to_name },
    from: { email: row.from_address, name: row.from_name },
    replyTo: row.reply_to,
    subject: row.subject,
    messageId: row.message_id,
    error: row.error,
    suppressionReason: row.suppression_reason,
    contact: row.contact_id ? { id: row.contact_id, email: row.contact_email } : null,
    campaign: named(row.campaign_id, row.campaign_name),
    template: named(row.template_id, row.template_name),
    workflow: named(row.workflow_id, row.workflow_name),
    executionId: row.execution_id,
    tracking: { opens: row.open_tracking, clicks: row.click_tracking },
    timestamps: {
      queuedAt: iso(row.created_at),
      sentAt: iso(row.sent_at),
      deliveredAt: iso(row.delivered_at),
      openedAt: iso(row.opened_at),
      clickedAt: iso(row.clicked_at),
      bouncedAt: iso(row.bounced_at),
      complainedAt: iso(row.complained_at),
      unsubscribedAt: iso(row.unsubscribed_at),
    },
    ...renderBody(row),
    events: events.map((e) => ({
      id: e.id,
      name: e.name,
      occurredAt: new Date(e.created_at).toISOString(),
      data: e.data ?? {},
    })),
  };
}
