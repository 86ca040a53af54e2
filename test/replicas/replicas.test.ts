import { Client as TemporalClient, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NAMESPACE,
  REPLICAS,
  startReplicaStack,
  type ReplicaStack,
} from './helpers/replica-stack.js';
import {
  LOW_RATE_LIMIT,
  keyRotationScenario,
  rateLimitScenario,
  restartApis,
} from './helpers/shared-state.js';
import { REPLICA_ENV, SIZES, burstScenario, campaignScenario, until } from './helpers/workloads.js';

describe(`${REPLICAS} APIs and ${REPLICAS} workers on one PostgreSQL and a Temporal server on PostgreSQL`, () => {
  let stack: ReplicaStack;
  beforeAll(async () => {
    stack = await startReplicaStack(REPLICA_ENV);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('our start-up registers the namespace and the ProjectId search attribute on a fresh server', async () => {
    expect(stack.namespaceExistedBeforeStart).toBe(false);
    const connection = await Connection.connect({ address: stack.temporal.address });
    try {
      const { customAttributes } = await connection.operatorService.listSearchAttributes({
        namespace: NAMESPACE,
      });
      expect(customAttributes).toMatchObject({ ProjectId: 2 }); // INDEXED_VALUE_TYPE_KEYWORD
      // Given exactly one field although both workers set it up at the same moment.
      const { config } = await connection.workflowService.describeNamespace({
        namespace: NAMESPACE,
      });
      const aliases = Object.values(config?.customSearchAttributeAliases ?? {});
      expect(aliases.filter((alias) => alias === 'ProjectId')).toHaveLength(1);
    } finally {
      await connection.close();
    }
  });

  it(`one API and one worker SIGKILLed during a ${SIZES.campaignRecipients}-recipient campaign: every recipient exactly once`, async () => {
    const { projectId, campaignId } = await campaignScenario(stack);
    // Advanced visibility on PostgreSQL: the run is found by its project.
    const connection = await Connection.connect({ address: stack.temporal.address });
    try {
      const client = new TemporalClient({ connection, namespace: NAMESPACE });
      const ids = await until(
        async () => {
          const found: string[] = [];
          for await (const run of client.workflow.list({ query: `ProjectId = '${projectId}'` }))
            found.push(run.workflowId);
          return found.includes(`campaign-${campaignId}`) && found;
        },
        "the campaign's run listed by ProjectId",
        { timeoutMs: 60_000, intervalMs: 500 },
      );
      expect(ids).toContain(`campaign-${campaignId}`);
    } finally {
      await connection.close();
    }
  });

  it(`one API and one worker SIGKILLed during a burst of ${SIZES.burstEvents} tracked events driving a SEND_EMAIL automation: every event and every email once`, () =>
    burstScenario(stack));

  describe(`with RATE_LIMIT_PER_MINUTE=${LOW_RATE_LIMIT} on both APIs`, () => {
    beforeAll(async () => {
      await restartApis(stack, { RATE_LIMIT_PER_MINUTE: String(LOW_RATE_LIMIT) });
    });

    it('the rate limit holds across both APIs: exactly the limit accepted in total', () =>
      rateLimitScenario(stack));

    it('a rotated key stops working on both APIs at once', () => keyRotationScenario(stack));
  });
});
