import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { findReturnPathProject, insertDeliveryReport } from '../../db/sql/delivery-reports.sql.js';
import { lockEmailForFeedback } from '../../db/sql/emails.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { normaliseDomain } from '../domains/dns-records.pure.js';
import { applyFeedbackToEmail } from '../sending/delivery-feedback.service.js';
import type { Feedback } from '../sending/delivery-feedback.pure.js';
import { readReturnPathToken } from '../sending/return-path.js';
import { assertNever } from '../shared/assert-never.pure.js';
import { newId } from '../shared/ids.js';
import { cleanStorableText, storableText } from '../shared/storable-text.pure.js';
import { readReport, type ReturnedMessage } from './read-report.pure.js';
import {
  isComplaint,
  type ReportFormat,
  type ReportOutcome,
  type ReportReading,
} from './report-reading.pure.js';

/** What reading reports needs: the pool, where messages are kept, and the token secret. */
export interface ReportDeps {
  sql: Sql;
  dataDir: string;
  /** Signs the return-path tokens (ENCRYPTION_KEY). */
  secret: string;
  /** RETURN_PATH_PREFIX. */
  returnPathPrefix: string;
}

/**
 * The project whose return path `address` is (`<token>@<prefix>.<verified domain>`), else none:
 * mail to it is a report, never an `email.received`.
 */
export async function returnPathProjectOf({
  sql,
  returnPathPrefix,
  address,
}: Pick<ReportDeps, 'sql' | 'returnPathPrefix'> & { address: string }): Promise<
  string | undefined
> {
  const host = storableText(address)
    .slice(address.lastIndexOf('@') + 1)
    .toLowerCase();
  if (!host.startsWith(`${returnPathPrefix}.`)) return undefined;
  const domain = normaliseDomain(host.slice(returnPathPrefix.length + 1));
  return domain ? findReturnPathProject(sql, { domain }) : undefined;
}

const decode = (content: ArrayBuffer | Uint8Array | string): string =>
  typeof content === 'string' ? content : new TextDecoder().decode(content);

/** A returned message as the report reader takes it (postal-mime keeps report parts as parts). */
export async function parseReturnedMessage(raw: Buffer): Promise<ReturnedMessage> {
  const parsed = await PostalMime.parse(raw);
  return {
    from: parsed.from?.address || undefined,
    subject: parsed.subject ?? '',
    text: parsed.text ?? (parsed.html ?? '').replace(/<[^>]*>/g, ' '),
    headers: parsed.headers.map((h) => ({ key: h.key, value: h.value })),
    parts: parsed.attachments.map((a) => ({ mimeType: a.mimeType, content: decode(a.content) })),
  };
}

/** Report directories known to exist (one per project): a mkdir per report is two syscalls. */
const madeDirectories = new Set<string>();

/** The raw message under DATA_DIR; a directory a project reset removed is made again. */
async function keepMessage({
  dataDir,
  projectId,
  storageKey,
  raw,
}: {
  dataDir: string;
  projectId: string;
  storageKey: string;
  raw: Buffer;
}): Promise<void> {
  const directory = path.join(dataDir, 'reports', projectId);
  const file = path.join(dataDir, storageKey);
  if (madeDirectories.has(directory)) {
    try {
      await writeFile(file, raw);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  await mkdir(directory, { recursive: true });
  madeDirectories.add(directory);
  await writeFile(file, raw);
}

type Decision = { outcome: ReportOutcome; reason: string | null; feedback?: Feedback };

const undetermined = (reason: string): Decision => ({ outcome: 'undetermined', reason });

/**
 * What a reading of a report about the email sent to `to` asks for; the evidence names the
 * report (`reportId`), so the event and the suppression lead back to the message.
 */
function decide({
  reading,
  to,
  reportId,
}: {
  reading: ReportReading;
  to: string;
  reportId: string;
}): Decision {
  switch (reading.format) {
    case 'auto_reply':
      return { outcome: 'ignored', reason: 'An automatic reply' };
    case 'unknown':
      return undetermined(reading.reason);
    case 'arf':
      if (reading.recipient && reading.recipient !== to)
        return undetermined(`The report names ${reading.recipient}, not the email's recipient`);
      if (!isComplaint(reading.feedbackType))
        return { outcome: 'ignored', reason: `Feedback-Type: ${reading.feedbackType}` };
      return {
        outcome: 'applied',
        reason: null,
        feedback: {
          type: 'complained',
          evidence: {
            source: 'arf',
            diagnostic: `Feedback-Type: ${reading.feedbackType}`,
            reportId,
          },
        },
      };
    case 'dsn':
    case 'plain_bounce': {
      if (reading.failures.length === 0)
        return { outcome: 'ignored', reason: 'No failure reported' };
      const failure = reading.failures.find((f) => f.recipient === to);
      if (!failure) return undetermined("The report does not name the email's recipient");
      const { status, diagnostic } = failure;
      return {
        outcome: 'applied',
        reason: null,
        feedback: {
          type: 'bounced',
          bounceType: failure.bounceType,
          evidence: {
            source: 'dsn',
            ...(status && { status }),
            ...(diagnostic && { diagnostic }),
            reportId,
          },
        },
      };
    }
  }
  return assertNever(reading, 'report format');
}

/**
 * Keeps and reads a message that reached a return-path address: the raw message under DATA_DIR
 * (reports/<project>/<report id>.eml) first, then, when its token names an email of the project
 * and it reads as a bounce or complaint of that email's recipient, the feedback applied as
 * applyDeliveryFeedback applies it (once: a repeat is `repeated`). Every message gets a
 * `delivery_reports` row with what became of it; a forged token, an unreadable report or one
 * naming another recipient is `undetermined` and changes nothing else.
 */
export async function receiveReport({
  sql,
  dataDir,
  secret,
  projectId,
  raw,
  recipient,
}: Omit<ReportDeps, 'returnPathPrefix'> & {
  projectId: string;
  raw: Buffer;
  recipient: string;
}): Promise<{ reportId: string; outcome: ReportOutcome }> {
  const id = newId();
  const storageKey = path.posix.join('reports', projectId, `${id}.eml`);
  await keepMessage({ dataDir, projectId, storageKey, raw });
  const token = recipient.slice(0, recipient.lastIndexOf('@'));
  const emailId = readReturnPathToken({ token, secret });
  const keep = (
    tx: Sql,
    kept: Decision,
    about: { emailId: string; format: ReportFormat } | undefined,
  ) =>
    insertDeliveryReport(tx, {
      id,
      projectId,
      emailId: about?.emailId ?? null,
      recipient: storableText(recipient).slice(0, 320),
      format: about?.format ?? 'unknown',
      outcome: kept.outcome,
      reason: kept.reason && storableText(kept.reason).slice(0, 500),
      storageKey,
    });
  const nobody = undetermined('The address names no email of this project');
  if (!emailId) {
    await keep(sql, nobody, undefined);
    return { reportId: id, outcome: nobody.outcome };
  }
  // Read before the email is locked, so the lock lasts a few statements.
  let reading: ReportReading;
  try {
    reading = readReport(await parseReturnedMessage(raw));
  } catch {
    reading = { format: 'unknown', reason: 'The message cannot be parsed' };
  }
  // The email (with its recipient), the change and the row that tells of it in one transaction:
  // one commit per report, and the row says `applied` only when the change was made.
  return sql.transaction(async (tx) => {
    const email = await lockEmailForFeedback(tx, { emailId });
    if (email?.project_id !== projectId) {
      await keep(tx, nobody, undefined);
      return { reportId: id, outcome: nobody.outcome };
    }
    let decision = decide({ reading, to: email.to_address.toLowerCase(), reportId: id });
    if (decision.feedback) {
      const { applied } = await applyFeedbackToEmail({
        tx,
        email,
        // Words from elsewhere: NULs and lone surrogates (PostgreSQL cannot store them) cleaned.
        feedback: cleanStorableText(decision.feedback),
      });
      if (!applied) decision = { outcome: 'repeated', reason: 'Already applied' };
    }
    await keep(tx, decision, { emailId, format: reading.format });
    return { reportId: id, outcome: decision.outcome };
  });
}
