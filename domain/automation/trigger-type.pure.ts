/** What starts a workflow's executions: a tracked event, a segment entry, or a manual start only. */
export const TRIGGER_TYPES = ['EVENT', 'MANUAL', 'SEGMENT_ENTRY'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];
