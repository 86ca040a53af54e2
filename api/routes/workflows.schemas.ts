import { z } from 'zod';
import {
  EXECUTION_STATUSES,
  STEP_RUN_STATUSES,
} from '../../domain/automation/execution-status.pure.js';
import { STEP_TYPES, TRANSITION_BRANCHES } from '../../domain/automation/step-type.pure.js';
import { STEP_DEFINITIONS } from '../../domain/automation/steps/index.js';
import { TRIGGER_TYPES } from '../../domain/automation/trigger-type.pure.js';
import { cursorQuery, pageQuery } from '../http/pagination.js';
import { optionalBooleanQuery } from '../http/query-flags.js';

/** A manual start's context, serialised, at most this many bytes. */
export const EXECUTION_CONTEXT_BYTES_MAX = 32 * 1024;

const name = z.string().trim().min(1).max(200);
const description = z.string().trim().max(2000).nullable();
const eventName = z.string().trim().min(1).max(255);
const flag = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((v) => v === 'true' || v === '1');

export const workflowIdParams = z.object({ id: z.uuid() });
export const stepParams = z.object({ id: z.uuid(), stepId: z.uuid() });
export const transitionParams = z.object({ id: z.uuid(), transitionId: z.uuid() });
export const executionParams = z.object({ id: z.uuid(), executionId: z.uuid() });

export const listWorkflowsQuery = pageQuery.extend({
  enabled: optionalBooleanQuery,
  search: z.string().trim().min(1).max(200).optional(),
});

// decisions.md: the trigger event is `triggerEvent`, also accepted as `eventName`.
export const createWorkflowBody = z
  .object({
    name,
    description: description.optional(),
    triggerEvent: eventName.optional(),
    eventName: eventName.optional(),
    allowReentry: z.boolean().default(false),
  })
  .refine((b) => b.triggerEvent !== undefined || b.eventName !== undefined, {
    message: 'Name the event that starts the workflow (triggerEvent)',
    path: ['triggerEvent'],
    params: { code: 'required' },
  });

export const updateWorkflowBody = z.object({
  name: name.optional(),
  description: description.optional(),
  triggerType: z.enum(TRIGGER_TYPES).optional(),
  triggerConfig: z
    .strictObject({ eventName: eventName.optional(), segmentId: z.uuid().optional() })
    .optional(),
  triggerEvent: eventName.optional(),
  eventName: eventName.optional(),
  enabled: z.boolean().optional(),
  allowReentry: z.boolean().optional(),
});

const position = z.object({ x: z.number().finite(), y: z.number().finite() }).nullable();

const STEP_CONFIG_HELP = `Per type: ${STEP_TYPES.map(
  (type) => `${type} ${STEP_DEFINITIONS[type].help}`,
).join('; ')}.`;

export const addStepBody = z.object({
  type: z.enum(STEP_TYPES),
  name: z.string().trim().max(200).nullable().optional(),
  config: z.unknown().meta({ description: STEP_CONFIG_HELP }),
  position: position.optional(),
});

export const updateStepBody = z.object({
  name: z.string().trim().max(200).nullable().optional(),
  config: z.unknown().optional().meta({ description: STEP_CONFIG_HELP }),
  position: position.optional(),
});

export const updateStepQuery = z.object({ force: flag });
export const deleteStepQuery = z.object({ splice: flag });

export const addTransitionBody = z.object({
  fromStepId: z.uuid(),
  toStepId: z.uuid(),
  branch: z.enum(TRANSITION_BRANCHES).nullable().optional(),
});

export const startExecutionBody = z
  .object({
    contactId: z.uuid().optional(),
    email: z.email().max(254).optional(),
    context: z
      .record(z.string(), z.unknown())
      .refine((c) => Buffer.byteLength(JSON.stringify(c)) <= EXECUTION_CONTEXT_BYTES_MAX, {
        message: `The context is larger than ${EXECUTION_CONTEXT_BYTES_MAX} bytes`,
        params: { code: 'too_big' },
      })
      .optional(),
  })
  .refine((b) => (b.contactId === undefined) !== (b.email === undefined), {
    message: 'Name the contact by contactId or by email (one of them)',
    path: ['contactId'],
    params: { code: 'required' },
  });

export const listExecutionsQuery = cursorQuery.extend({
  status: z
    .string()
    .transform((s) => s.split(',').map((part) => part.trim().toUpperCase()))
    .pipe(z.array(z.enum(EXECUTION_STATUSES)).min(1))
    .optional()
    .meta({ description: 'One status or several, comma-separated (RUNNING,WAITING)' }),
});

const stepView = z.object({
  id: z.uuid(),
  workflowId: z.uuid(),
  type: z.enum(STEP_TYPES),
  name: z.string().nullable(),
  config: z.record(z.string(), z.unknown()),
  position: position,
  createdAt: z.string(),
  updatedAt: z.string(),
});

const transitionView = z.object({
  id: z.uuid(),
  workflowId: z.uuid(),
  fromStepId: z.uuid(),
  toStepId: z.uuid(),
  branch: z.enum(TRANSITION_BRANCHES).nullable(),
  createdAt: z.string(),
});

export const workflowView = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  triggerType: z.enum(TRIGGER_TYPES),
  triggerConfig: z.object({ eventName: z.string().optional(), segmentId: z.uuid().optional() }),
  triggerEvent: z.string().nullable(),
  eventName: z.string().nullable(),
  enabled: z.boolean(),
  allowReentry: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const workflowDetailView = workflowView.extend({
  steps: z.array(stepView),
  transitions: z.array(transitionView),
  executions: z.record(z.enum(EXECUTION_STATUSES), z.number().int()),
  problems: z
    .array(z.object({ field: z.string(), message: z.string(), code: z.string() }))
    .describe('What keeps the workflow from running; enabling is refused while any remain'),
});

export const workflowPage = z.object({
  workflows: z.array(workflowView),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  totalPages: z.number().int(),
});

export const workflowFieldsView = z.object({
  fields: z.array(z.object({ field: z.string(), type: z.string(), coverage: z.number() })),
  events: z.array(z.object({ name: z.string(), fields: z.array(z.string()) })),
});

export { stepView, transitionView };

const executionStepView = z.object({
  seq: z.number().int(),
  stepId: z.uuid(),
  type: z.enum(STEP_TYPES),
  status: z.enum(STEP_RUN_STATUSES),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  result: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
});

export const executionView = z.object({
  id: z.uuid(),
  workflowId: z.uuid(),
  contactId: z.uuid(),
  contactEmail: z.string(),
  status: z.enum(EXECUTION_STATUSES),
  currentStepId: z.uuid().nullable(),
  context: z.record(z.string(), z.unknown()),
  triggerEvent: z
    .object({
      id: z.uuid(),
      name: z.string(),
      data: z.record(z.string(), z.unknown()),
      createdAt: z.string(),
    })
    .nullable(),
  exitReason: z.string().nullable(),
  error: z.string().nullable(),
  temporalWorkflowId: z.string().describe('Its durable run: search for it in the Temporal UI'),
  createdAt: z.string(),
  updatedAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  steps: z.array(executionStepView).optional(),
});

export const executionPage = z.object({
  executions: z.array(executionView),
  total: z.number().int().describe('On the first page only (0 after)'),
  cursor: z.string().nullable(),
  hasMore: z.boolean(),
});

const count = z.number().int();
export const workflowStepCountsView = z.object({
  steps: z.array(
    z.object({
      stepId: z.uuid(),
      passed: count.describe('Executions that completed the step'),
      here: count.describe('Executions at the step now (RUNNING or WAITING there)'),
      exited: count.describe('Executions that ended EXITED at the step'),
      failed: count.describe('Executions that ended FAILED at the step'),
    }),
  ),
});
