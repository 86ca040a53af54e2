import {
  Client,
  Connection,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
} from '@temporalio/client';
import proto from '@temporalio/proto';
import type { SignalOutcome } from '../domain/automation/execution-command.pure.js';
import type { NativeConnection } from '@temporalio/worker';
import type { ReceivedEvent } from '../domain/automation/execution-path.pure.js';
import type {
  AutomationDispatchSettings,
  CampaignSendStart,
  ContactJobRequest,
  EmailDeliverySettings,
  ExecutionStart,
  SegmentComputeRequest,
  SegmentComputeResult,
  SendEmailRequest,
  SystemEmailRequest,
  WorkflowEngine,
} from '../domain/shared/ports.js';
import { connectionOptions, type TemporalSettings } from './connection-options.js';
import { PROJECT_ID } from './shared/search-attributes.js';
import {
  CONFIGURE_AUTOMATION_DISPATCH,
  CONFIGURE_EMAIL_DELIVERY,
  EXECUTION_EVENT,
} from './shared/signals.js';
import {
  automationDispatchWorkflowId,
  campaignSendWorkflowId,
  contactJobWorkflowId,
  emailDeliveryWorkflowId,
  executionWorkflowId,
  segmentComputeWorkflowId,
  sendEmailWorkflowId,
  systemEmailWorkflowId,
} from './shared/workflow-ids.js';
import type {
  automationDispatch,
  campaignSend,
  contactJob,
  emailDelivery,
  execution,
  segmentCompute,
  sendEmail,
  sendSystemEmail,
} from './workflows/index.js';
import type { SendEmailRetry } from './workflows/send-email.workflow.js';

/** A live worker re-polls at least once per long poll (about a minute). */
const LIVE_POLLER_MS = 90_000;

const timestampMs = (t: { seconds?: unknown; nanos?: number | null } | null | undefined): number =>
  t ? Number(t.seconds ?? 0) * 1000 + Math.floor((t.nanos ?? 0) / 1e6) : 0;

/** What the engine needs of a connection: a gRPC Connection, or a worker's NativeConnection. */
type EngineConnection = Pick<Connection, 'workflowService' | 'withDeadline' | 'close'>;

/** The WorkflowEngine port over Temporal. Starts are idempotent by workflow id. */
export class TemporalWorkflowEngine implements WorkflowEngine {
  private constructor(
    private readonly connection: EngineConnection,
    private readonly client: Client,
    private readonly taskQueue: string,
    /** Whether the connection is the engine's to close (not when it shares a worker's). */
    private readonly ownsConnection: boolean,
    /** Executions start eagerly: their first task goes to this process's worker, no poll. */
    private readonly eagerStarts: boolean,
    /** The retries of the send-email runs it starts (the workflow's defaults when absent). */
    private readonly emailRetry?: SendEmailRetry,
  ) {}

  static create(settings: TemporalSettings): TemporalWorkflowEngine {
    // Lazy: the API starts (and answers /health) even while Temporal is still coming up.
    const connection = Connection.lazy(connectionOptions(settings));
    const client = new Client({ connection, namespace: settings.namespace });
    return new TemporalWorkflowEngine(connection, client, settings.taskQueue, true, false);
  }

  /**
   * The engine of a worker process, over the worker's own native connection: the executions
   * its dispatcher starts (on its task queue) start eagerly, their first workflow task handed
   * to this worker in the start's answer, which spares the server a dispatch per execution.
   */
  static sharing(
    connection: NativeConnection,
    settings: TemporalSettings,
    { emailRetry }: { emailRetry?: SendEmailRetry } = {},
  ): TemporalWorkflowEngine {
    const client = new Client({ connection, namespace: settings.namespace });
    return new TemporalWorkflowEngine(
      connection,
      client,
      settings.taskQueue,
      false,
      true,
      emailRetry,
    );
  }

  private async start<A extends unknown[]>(
    workflow: string,
    { workflowId, args, projectId }: { workflowId: string; args: A; projectId?: string },
  ): Promise<void> {
    try {
      await this.client.workflow.start(workflow, {
        taskQueue: this.taskQueue,
        workflowId,
        // A finished run keeps its id: a retried start is a no-op, never a second run.
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        args,
        typedSearchAttributes: projectId ? [{ key: PROJECT_ID, value: projectId }] : undefined,
      });
    } catch (error) {
      if (error instanceof WorkflowExecutionAlreadyStartedError) return;
      throw error;
    }
  }

  async startSystemEmail(request: SystemEmailRequest): Promise<void> {
    await this.start<Parameters<typeof sendSystemEmail>>('sendSystemEmail', {
      workflowId: systemEmailWorkflowId(request.requestId),
      args: [request],
      projectId: request.projectId,
    });
  }

  async startContactJob(request: ContactJobRequest): Promise<void> {
    await this.start<Parameters<typeof contactJob>>('contactJob', {
      workflowId: contactJobWorkflowId(request.jobId),
      args: [request],
      projectId: request.projectId,
    });
  }

  async startSendEmail(request: SendEmailRequest): Promise<void> {
    await this.start<Parameters<typeof sendEmail>>('sendEmail', {
      workflowId: sendEmailWorkflowId(request.emailId),
      args: [{ ...request, retry: this.emailRetry }],
      projectId: request.projectId,
    });
  }

  async ensureEmailDelivery(
    settings: EmailDeliverySettings,
    { configure = false }: { configure?: boolean } = {},
  ): Promise<void> {
    const options = {
      taskQueue: settings.queue,
      workflowId: emailDeliveryWorkflowId(settings.queue),
      args: [settings] as [EmailDeliverySettings],
    };
    if (configure) {
      // Starts the loop when none runs, otherwise hands the running one these settings.
      await this.client.workflow.signalWithStart<typeof emailDelivery, [EmailDeliverySettings]>(
        'emailDelivery',
        { ...options, signal: CONFIGURE_EMAIL_DELIVERY, signalArgs: [settings] },
      );
      return;
    }
    // A running loop is left alone (no history event); a finished or terminated one runs again.
    await this.client.workflow.start<typeof emailDelivery>('emailDelivery', {
      ...options,
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
  }

  /** A compute that runs is joined (one per segment at a time); a finished one may run again. */
  private startSegmentComputeRun(request: SegmentComputeRequest) {
    return this.client.workflow.start<typeof segmentCompute>('segmentCompute', {
      taskQueue: this.taskQueue,
      workflowId: segmentComputeWorkflowId(request.segmentId),
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      args: [request],
      typedSearchAttributes: [{ key: PROJECT_ID, value: request.projectId }],
    });
  }

  async computeSegment(request: SegmentComputeRequest): Promise<SegmentComputeResult> {
    return (await this.startSegmentComputeRun(request)).result();
  }

  async startSegmentCompute(request: SegmentComputeRequest): Promise<void> {
    await this.startSegmentComputeRun(request);
  }

  async ensureAutomationDispatch(
    settings: AutomationDispatchSettings,
    { configure = false }: { configure?: boolean } = {},
  ): Promise<void> {
    const options = {
      taskQueue: settings.queue,
      workflowId: automationDispatchWorkflowId(settings.queue),
      args: [settings] as [AutomationDispatchSettings],
    };
    if (configure) {
      await this.client.workflow.signalWithStart<
        typeof automationDispatch,
        [AutomationDispatchSettings]
      >('automationDispatch', {
        ...options,
        signal: CONFIGURE_AUTOMATION_DISPATCH,
        signalArgs: [settings],
      });
      return;
    }
    await this.client.workflow.start<typeof automationDispatch>('automationDispatch', {
      ...options,
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
  }

  async startExecution({ input, memo, startDelayMs = 0 }: ExecutionStart): Promise<void> {
    const delayed = startDelayMs > 0;
    try {
      await this.client.workflow.start<typeof execution>('execution', {
        taskQueue: input.execution.queue,
        workflowId: executionWorkflowId(input.execution.executionId),
        // A run that ended keeps its id: a retried start never runs the execution twice.
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        args: [input],
        memo,
        ...(delayed ? { startDelay: startDelayMs } : {}),
        requestEagerStart: !delayed && this.eagerStarts && input.execution.queue === this.taskQueue,
        typedSearchAttributes: [{ key: PROJECT_ID, value: input.execution.projectId }],
      });
    } catch (error) {
      if (error instanceof WorkflowExecutionAlreadyStartedError) return;
      throw error;
    }
  }

  async signalExecution({
    executionId,
    event,
  }: {
    executionId: string;
    event: ReceivedEvent;
  }): Promise<SignalOutcome> {
    try {
      await this.client.workflow
        .getHandle(executionWorkflowId(executionId))
        .signal<[ReceivedEvent]>(EXECUTION_EVENT, event);
      return 'signalled';
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return 'ended';
      throw error;
    }
  }

  async cancelExecution({ executionId }: { executionId: string }): Promise<void> {
    try {
      await this.client.workflow.getHandle(executionWorkflowId(executionId)).cancel();
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return;
      throw error;
    }
  }

  async startCampaignSend({ input, memo }: CampaignSendStart): Promise<void> {
    await this.client.workflow.start<typeof campaignSend>('campaignSend', {
      taskQueue: this.taskQueue,
      workflowId: campaignSendWorkflowId(input.campaignId),
      // The campaign's status moved from DRAFT once (a compare-and-set), so a second start is a
      // retry of the same send: it finds the run that lives, or (when the first commit failed and
      // that run found a DRAFT and ended) starts the send anew.
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      args: [input],
      memo,
      typedSearchAttributes: [{ key: PROJECT_ID, value: input.projectId }],
    });
  }

  async cancelCampaignSend({ campaignId }: { campaignId: string }): Promise<void> {
    try {
      await this.client.workflow.getHandle(campaignSendWorkflowId(campaignId)).cancel();
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return;
      throw error;
    }
  }

  async isReachable(): Promise<boolean> {
    try {
      // Reads the namespace from the server's store, so a server that answers but whose store
      // fails is not reported ready (getSystemInfo answers from memory).
      await this.connection.withDeadline(Date.now() + 3000, () =>
        this.connection.workflowService.describeNamespace({
          namespace: this.client.options.namespace,
        }),
      );
      return true;
    } catch {
      return false;
    }
  }

  async hasLiveWorker(): Promise<boolean> {
    try {
      const { pollers } = await this.connection.withDeadline(Date.now() + 3000, () =>
        this.connection.workflowService.describeTaskQueue({
          namespace: this.client.options.namespace,
          taskQueue: { name: this.taskQueue },
          taskQueueType: proto.temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
        }),
      );
      const since = Date.now() - LIVE_POLLER_MS;
      return pollers.some((p) => timestampMs(p.lastAccessTime) >= since);
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.ownsConnection) await this.connection.close();
  }
}
