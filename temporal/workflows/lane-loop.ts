import { setHandler, workflowInfo, type SignalDefinition } from '@temporalio/workflow';

/** How many lane activities a loop runs at once, and how long each runs. */
export interface LaneSettings {
  lanes: number;
  laneSeconds: number;
}

// Well under Temporal's limits; a run this long has been at work for hours.
const MAX_HISTORY_EVENTS = 2000;

/**
 * The body of a long-running loop of lanes (the email-delivery and automation-dispatch
 * workflows): `settings.lanes` lanes at a time, each running `lane` for `laneSeconds`, one after
 * another, until the history grows long or `configure` brings other settings. Answers the
 * settings the workflow continues as new with.
 */
export async function runLanes<S extends LaneSettings>(
  settings: S,
  configure: SignalDefinition<[S]>,
  lane: (runForSeconds: number) => Promise<unknown>,
): Promise<S> {
  let current = settings;
  let reconfigured = false;
  setHandler(configure, (next) => {
    if (next.lanes === current.lanes && next.laneSeconds === current.laneSeconds) return;
    current = next;
    reconfigured = true;
  });
  const keepGoing = (): boolean =>
    !reconfigured &&
    !workflowInfo().continueAsNewSuggested &&
    workflowInfo().historyLength < MAX_HISTORY_EVENTS;
  await Promise.all(
    Array.from({ length: settings.lanes }, async () => {
      while (keepGoing()) await lane(current.laneSeconds);
    }),
  );
  return current;
}
