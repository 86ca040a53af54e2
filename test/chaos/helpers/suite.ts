import { afterAll, beforeAll, describe, it } from 'vitest';
import { startChaosStack, type ChaosStack } from './chaos-stack.js';
import { FAULTS, type FaultKind } from './faults.js';
import {
  CHAOS_ENV,
  SIZES,
  campaignScenario,
  eventsScenario,
  importScenario,
  segmentScenario,
} from './workloads.js';

/**
 * One fault against the four kinds of work, on an installation of the file's own. Each scenario
 * makes its own project, so what one left behind never counts in the next.
 */
export function chaosSuite(kind: FaultKind): void {
  const fault = FAULTS[kind];
  let stack: ChaosStack;
  beforeAll(async () => {
    stack = await startChaosStack(CHAOS_ENV);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  describe(`${fault.name}, then recovery by itself`, () => {
    it(`during a ${SIZES.campaignRecipients}-recipient campaign: every recipient exactly once`, () =>
      campaignScenario(stack, fault));
    it(`during a ${SIZES.importRows}-row import: every row once`, () =>
      importScenario(stack, fault));
    it(`during ${SIZES.signups + SIZES.purchases} tracked events: executions ended or waiting where they should`, () =>
      eventsScenario(stack, fault));
    it(`during a tracked segment compute of ${SIZES.segmentContacts} contacts: every entry and exit once`, () =>
      segmentScenario(stack, fault));
  });
}
