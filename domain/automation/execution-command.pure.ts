/**
 * What the dispatcher tells Temporal about an execution: start its workflow, signal it an event,
 * cancel it. Written to the command outbox first, carried out at least once.
 */
export const EXECUTION_COMMAND_KINDS = ['START', 'SIGNAL', 'CANCEL'] as const;
export type ExecutionCommandKind = (typeof EXECUTION_COMMAND_KINDS)[number];
