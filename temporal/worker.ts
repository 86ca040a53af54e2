import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from './activities/index.js';
import { bundleWorkflowsApart, workflowsPath } from './bundle-workflows.js';
import { connectionOptions, type TemporalSettings } from './connection-options.js';
import { ensureNamespace } from './namespace.js';
import { PROJECT_ID } from './shared/search-attributes.js';

export { workflowsPath };

/**
 * The dev server registers ProjectId at launch; a self-hosted or Cloud namespace may not have
 * it yet, and a start that names an unknown attribute is refused, so make sure it exists (in a
 * namespace registered first when a fresh self-hosted server has none). Two workers adding it at
 * once could each give it a field of its own on a SQL store: callers run this under a lock.
 */
export async function ensureSearchAttributes(settings: TemporalSettings): Promise<void> {
  const connection = await Connection.connect(connectionOptions(settings));
  try {
    await ensureNamespace(connection, settings.namespace);
    const { customAttributes } = await connection.operatorService.listSearchAttributes({
      namespace: settings.namespace,
    });
    if (!customAttributes || !(PROJECT_ID.name in customAttributes)) {
      await connection.operatorService.addSearchAttributes({
        namespace: settings.namespace,
        searchAttributes: {
          [PROJECT_ID.name]:
            proto.temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
        },
      });
    }
    await untilSearchAttributeUsable(connection, settings.namespace);
  } finally {
    await connection.close();
  }
}

/** How long start-up waits for a just-registered ProjectId to be usable, at most. */
const SEARCH_ATTRIBUTE_READY_MS = 30_000;

/**
 * A server with SQL persistence lists a new search attribute at once but maps it only once its
 * frontend's namespace cache refreshes (about 10 s): until then a start that names it is refused
 * ("no mapping defined for search attribute"), so the first sends after a fresh set-up failed
 * with 503. A list query naming the attribute is refused the same way, and so tells when it is
 * usable. Other errors, or no readiness within SEARCH_ATTRIBUTE_READY_MS, end the wait: starts
 * are then refused as before, with 503 and a retry later.
 */
async function untilSearchAttributeUsable(
  connection: Connection,
  namespace: string,
): Promise<void> {
  const deadline = Date.now() + SEARCH_ATTRIBUTE_READY_MS;
  for (;;) {
    try {
      await connection.workflowService.listWorkflowExecutions({
        namespace,
        pageSize: 1,
        query: `${PROJECT_ID.name} = 'search-attribute-probe'`,
      });
      return;
    } catch (error) {
      const invalidArgument = (error as { code?: number }).code === 3;
      if (!invalidArgument || Date.now() > deadline) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** The worker process's connection to Temporal, shared by its worker and its engine. */
export async function connectWorker(settings: TemporalSettings): Promise<NativeConnection> {
  return NativeConnection.connect(connectionOptions(settings));
}

export async function createWorker({
  connection,
  settings,
  deps,
  workflowBundlePath,
}: {
  connection: NativeConnection;
  settings: TemporalSettings;
  deps: ActivityDeps;
  workflowBundlePath?: string;
}): Promise<Worker> {
  // Without a bundle built ahead (WORKFLOW_BUNDLE_PATH), one is built in a child process: the
  // bundler's memory then never joins this long-lived process's (see bundleWorkflowsApart).
  const bundleDir = workflowBundlePath
    ? undefined
    : await mkdtemp(path.join(tmpdir(), 'mailwright-workflows-'));
  try {
    const codePath =
      workflowBundlePath ??
      (await bundleWorkflowsApart(path.join(bundleDir as string, 'workflow-bundle.js')));
    return await Worker.create({
      connection,
      namespace: settings.namespace,
      taskQueue: settings.taskQueue,
      activities: createActivities(deps),
      workflowBundle: { codePath },
    });
  } finally {
    // Worker.create has read the bundle into memory.
    if (bundleDir) await rm(bundleDir, { recursive: true, force: true });
  }
}
