import { findContact, type ContactRow } from '../../db/sql/contacts.sql.js';
import { beginExecutionStep, finishExecution } from '../../db/sql/executions.sql.js';
import {
  findExecutionStepEmail,
  findSendContext,
  queueExecutionEmail,
} from '../../db/sql/queue-email.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { updateContact } from '../contacts/contacts.service.js';
import { capOf, chargeCap } from '../billing/billing.service.js';
import { matchSenderDomain } from '../domains/sender-domain.pure.js';
import { evaluateCondition } from '../segments/filter/evaluate.pure.js';
import { DomainError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { QueueNotifier } from '../shared/ports.js';
import type { FinalExecutionStatus } from './execution-status.pure.js';
import type {
  AdvanceOutcome,
  ExecutionRef,
  StepClosing,
  StepOutcome,
  StepRan,
} from './execution-run.pure.js';
import { stepAfter } from './interpreter.pure.js';
import { stepById } from './graph.pure.js';
import type { WorkflowGraph } from './step-config.pure.js';
import { RUN_MODE_OF } from './step-type.pure.js';
import type { ReceivedEvent } from './interpreter.pure.js';
import type { GraphStep } from './step-config.pure.js';
import type { ConditionBranch } from './step-type.pure.js';

// The database side of an execution's steps, run by its durable run's activities. Every write
// is idempotent (a step's row is keyed by its place in the run, its email by execution and
// step), and every step first checks that the execution is still RUNNING or WAITING, so a
// cancelled execution runs nothing more.

export interface StepRunDeps {
  sql: Sql;
  /** Wakes the delivery lanes of the execution's queue after a SEND_EMAIL. */
  emailNotifier: QueueNotifier;
  /** Billing is on: the project's monthly `workflows` cap applies to SEND_EMAIL. */
  billingOn: boolean;
}

/** What a step's template variables and conditions see of the execution. */
export interface StepScope {
  trigger: ReceivedEvent | null;
  context: Record<string, unknown>;
}

/** Ends the execution with `status`, closing the step it leaves. */
export async function endExecution({
  sql,
  ref,
  status,
  close,
  error,
  context,
}: {
  sql: Sql;
  ref: ExecutionRef;
  status: FinalExecutionStatus;
  close?: StepClosing;
  error?: string;
  context?: Record<string, unknown>;
}): Promise<void> {
  await finishExecution(sql, { executionId: ref.executionId, status, close, error, context });
}

async function failStep({
  sql,
  ref,
  seq,
  error,
  result,
}: {
  sql: Sql;
  ref: ExecutionRef;
  seq: number;
  error: string;
  result?: Record<string, unknown>;
}): Promise<StepOutcome> {
  await finishExecution(sql, {
    executionId: ref.executionId,
    status: 'FAILED',
    close: { seq, status: 'FAILED', error, result },
    error,
  });
  return { kind: 'ended', status: 'FAILED' };
}

/** A WEBHOOK that failed for good: the step is FAILED with its reason, and so is the execution. */
export async function failRemoteStep({
  sql,
  ref,
  seq,
  error,
  result,
}: {
  sql: Sql;
  ref: ExecutionRef;
  seq: number;
  error: string;
  result?: Record<string, unknown>;
}): Promise<StepOutcome> {
  return failStep({ sql, ref, seq, error, result });
}

/** Thrown to undo a charge when the step's email was queued (and counted) by an earlier attempt. */
class QueuedBefore extends Error {}

/**
 * Queues the step's email taking one from the project's monthly `workflows` cap, in one
 * transaction; a retried step whose email exists already is not counted again.
 */
async function queueWithinCap<T extends { id: string; status: string } | undefined>(
  sql: Sql,
  {
    projectId,
    id,
    cap,
    executionId,
    stepId,
  }: { projectId: string; id: string; cap: number; executionId: string; stepId: string },
  queue: (tx: Sql) => Promise<T>,
): Promise<T> {
  try {
    return await sql.transaction(async (tx) => {
      // Charged before the insert, so the usage count made from the rows does not hold it.
      await chargeCap({ tx, projectId, category: 'workflows', count: 1, cap });
      const queued = await queue(tx);
      if (queued === undefined || queued.id !== id || queued.status !== 'QUEUED') {
        throw new QueuedBefore();
      }
      return queued;
    });
  } catch (error) {
    if (error instanceof QueuedBefore) return queue(sql); // finds the earlier one, or nothing
    // A retry of a step whose email the cap's last place went to: that email stands.
    if (error instanceof DomainError && error.code === 'BILLING_LIMIT_EXCEEDED') {
      const earlier = await findExecutionStepEmail(sql, { executionId, stepId });
      if (earlier) return earlier as T;
    }
    throw error;
  }
}

async function sendEmailStep({
  sql,
  emailNotifier,
  billingOn,
  ref,
  step,
  scope,
}: StepRunDeps & {
  ref: ExecutionRef;
  step: Extract<GraphStep, { type: 'SEND_EMAIL' }>;
  scope: StepScope;
}): Promise<{ result: Record<string, unknown> } | { error: string }> {
  const { template, verifiedDomains } = await findSendContext(sql, {
    projectId: ref.projectId,
    templateId: step.config.templateId,
  });
  if (!template) return { error: `Template ${step.config.templateId} no longer exists` };
  const domain = matchSenderDomain(verifiedDomains, template.from_address);
  if (!domain) {
    return { error: `The template's sender ${template.from_address} is not on a verified domain` };
  }
  const id = newId();
  const queue = (tx: Sql) =>
    queueExecutionEmail(tx, {
      id,
      projectId: ref.projectId,
      contactId: ref.contactId,
      templateId: template.id,
      domainId: domain.id,
      variables: { event: scope.trigger?.data ?? {}, context: scope.context },
      deliveryQueue: ref.queue,
      workflowId: ref.workflowId,
      executionId: ref.executionId,
      stepId: step.id,
    });
  const cap = await capOf({ sql, billingOn, projectId: ref.projectId, category: 'workflows' });
  let email: Awaited<ReturnType<typeof queue>>;
  try {
    email =
      cap === undefined
        ? await queue(sql)
        : await queueWithinCap(
            sql,
            { projectId: ref.projectId, id, cap, executionId: ref.executionId, stepId: step.id },
            queue,
          );
  } catch (error) {
    if (error instanceof DomainError && error.code === 'BILLING_LIMIT_EXCEEDED') {
      return { error: error.message };
    }
    throw error;
  }
  if (!email) return { error: 'The contact or the template no longer exists' };
  if (email.status === 'QUEUED') emailNotifier.queued(ref.queue);
  return { result: { emailId: email.id, status: email.status } };
}

function conditionStep({
  contact,
  step,
  scope,
}: {
  contact: ContactRow;
  step: Extract<GraphStep, { type: 'CONDITION' }>;
  scope: StepScope;
}): { branch: ConditionBranch; result: Record<string, unknown> } {
  const matched = evaluateCondition(
    step.config,
    {
      email: contact.email,
      subscribed: contact.subscribed,
      createdAt: new Date(contact.created_at),
      updatedAt: new Date(contact.updated_at),
      data: contact.data,
      events: [],
      staticSegments: new Set(),
      eventData: scope.trigger?.data ?? {},
      context: scope.context,
    },
    { now: new Date(), segments: new Map(), scope: 'workflow' },
  );
  return { branch: matched ? 'yes' : 'no', result: { matched } };
}

/**
 * Runs a step that completes at once (SEND_EMAIL, CONDITION, UPDATE_CONTACT, EXIT), after
 * recording that the execution begins it (and closing the step it leaves). EXIT ends the
 * execution; a step that cannot do its work fails it.
 */
async function runInstantStep({
  sql,
  emailNotifier,
  billingOn,
  ref,
  seq,
  step,
  close,
  scope,
}: StepRunDeps & {
  ref: ExecutionRef;
  seq: number;
  step: GraphStep;
  close?: StepClosing;
  scope: StepScope;
}): Promise<StepOutcome> {
  if (step.type === 'EXIT') {
    const ended = await finishExecution(sql, {
      executionId: ref.executionId,
      status: 'EXITED',
      close,
      exitStep: { seq, stepId: step.id },
      exitReason: step.config.reason ?? null,
      context: scope.context,
    });
    return ended ? { kind: 'ended', status: 'EXITED' } : { kind: 'inactive' };
  }
  const begun = await beginExecutionStep(sql, {
    executionId: ref.executionId,
    seq,
    stepId: step.id,
    type: step.type,
    waiting: false,
    close,
    context: scope.context,
  });
  if (!begun.active) return { kind: 'inactive' };
  const done = (result: Record<string, unknown>, branch: ConditionBranch | null = null) =>
    ({ kind: 'done', branch, closing: { seq, status: 'COMPLETED', result } }) as const;
  try {
    switch (step.type) {
      case 'SEND_EMAIL': {
        const sent = await sendEmailStep({ sql, emailNotifier, billingOn, ref, step, scope });
        if ('error' in sent) return failStep({ sql, ref, seq, error: sent.error });
        return done(sent.result);
      }
      case 'CONDITION': {
        const contact = await findContact(sql, {
          projectId: ref.projectId,
          contactId: ref.contactId,
        });
        if (!contact) return failStep({ sql, ref, seq, error: 'The contact no longer exists' });
        const decided = conditionStep({ contact, step, scope });
        return done(decided.result, decided.branch);
      }
      case 'UPDATE_CONTACT': {
        const updated = await updateContact({
          sql,
          projectId: ref.projectId,
          contactId: ref.contactId,
          subscribed: step.config.subscribed,
          data: step.config.data,
          source: 'workflow',
        });
        return done({ subscribed: updated.subscribed });
      }
      default:
        throw new Error(`${step.type} steps do not complete at once`);
    }
  } catch (error) {
    if (error instanceof DomainError) return failStep({ sql, ref, seq, error: error.message });
    throw error; // the database or the like: the activity is tried again
  }
}

/**
 * Runs an execution's steps from `from` for as long as they complete at once (SEND_EMAIL,
 * CONDITION, UPDATE_CONTACT, EXIT), following the graph with the pure interpreter, and stops at
 * the first step that takes time, which it begins: a DELAY or WAIT_FOR_EVENT (the execution is
 * WAITING), or a WEBHOOK. A path that runs out completes the execution. One call instead of one
 * per step: fewer round trips to Temporal and to PostgreSQL per execution.
 */
export async function advanceExecution({
  sql,
  emailNotifier,
  billingOn,
  ref,
  graph,
  from,
  close,
  scope,
}: StepRunDeps & {
  ref: ExecutionRef;
  graph: WorkflowGraph;
  from: { stepId: string; seq: number };
  close?: StepClosing;
  scope: StepScope;
}): Promise<AdvanceOutcome> {
  const ran: StepRan[] = [];
  let step = stepById(graph, from.stepId);
  let seq = from.seq;
  let closing = close;
  while (step) {
    const mode = RUN_MODE_OF[step.type];
    if (mode !== 'instant') {
      // A step that takes time begins (a DELAY or WAIT_FOR_EVENT: WAITING from now, by the
      // database's clock, which events are compared with); the workflow takes it from there.
      const begun = await beginExecutionStep(sql, {
        executionId: ref.executionId,
        seq,
        stepId: step.id,
        type: step.type,
        waiting: mode !== 'remote',
        close: closing,
        context: scope.context,
      });
      if (!begun.active || !begun.startedAt) return { kind: 'inactive', ran };
      return mode === 'remote'
        ? { kind: 'remote', stepId: step.id, seq, ran }
        : {
            kind: 'waiting',
            stepId: step.id,
            seq,
            since: new Date(begun.startedAt).toISOString(),
            ran,
          };
    }
    const outcome = await runInstantStep({
      sql,
      emailNotifier,
      billingOn,
      ref,
      seq,
      step,
      close: closing,
      scope,
    });
    if (outcome.kind !== 'done')
      return { ...outcome, ran: [...ran, { seq, stepId: step.id, type: step.type, branch: null }] };
    ran.push({ seq, stepId: step.id, type: step.type, branch: outcome.branch });
    closing = outcome.closing;
    step = stepAfter(graph, step, outcome.branch);
    seq += 1;
  }
  const ended = await finishExecution(sql, {
    executionId: ref.executionId,
    status: 'COMPLETED',
    close: closing,
    context: scope.context,
  });
  return ended ? { kind: 'ended', status: 'COMPLETED', ran } : { kind: 'inactive', ran };
}
