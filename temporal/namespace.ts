import { type Connection, isGrpcServiceError } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';

// gRPC NOT_FOUND and ALREADY_EXISTS.
const NOT_FOUND = 5;
const ALREADY_EXISTS = 6;

const SERVED_WITHIN_MS = 60_000;

/**
 * How long a namespace we register ourselves keeps closed runs (their histories are what
 * `npm run replay` and the Temporal UI read). A namespace the operator made keeps its own.
 */
export const REGISTERED_NAMESPACE_RETENTION_DAYS = 7;

/**
 * The dev server and Temporal Cloud come with their namespace; a self-hosted server started from
 * its own config has none until someone registers it. Registers `namespace` when the server
 * does not know it (another worker registering it at the same moment is as good).
 */
export async function ensureNamespace(connection: Connection, namespace: string): Promise<void> {
  try {
    await connection.workflowService.describeNamespace({ namespace });
    return;
  } catch (error) {
    if (!isGrpcServiceError(error) || error.code !== NOT_FOUND) throw error;
  }
  try {
    await connection.workflowService.registerNamespace({
      namespace,
      description: 'Mailwright (registered by its worker at start-up)',
      workflowExecutionRetentionPeriod: msToTs(`${REGISTERED_NAMESPACE_RETENTION_DAYS} days`),
    });
  } catch (error) {
    if (!isGrpcServiceError(error) || error.code !== ALREADY_EXISTS) throw error;
  }
  await untilServed(connection, namespace);
}

/**
 * A namespace just registered is stored at once but served only once the frontend's namespace
 * cache has it (a refresh every few seconds): until then calls naming it answer NOT_FOUND.
 */
async function untilServed(connection: Connection, namespace: string): Promise<void> {
  const deadline = Date.now() + SERVED_WITHIN_MS;
  for (;;) {
    try {
      await connection.operatorService.listSearchAttributes({ namespace });
      return;
    } catch (error) {
      const notYet = isGrpcServiceError(error) && error.code === NOT_FOUND;
      if (!notYet || Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
