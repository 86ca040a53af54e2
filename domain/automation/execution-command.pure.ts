/**
 * What the dispatcher tells Temporal about an execution: start its workflow, signal it an event,
 * cancel it. Written to the command outbox first, carried out at least once.
 */
export const EXECUTION_COMMAND_KINDS = ['START', 'SIGNAL', 'CANCEL'] as const;
export type ExecutionCommandKind = (typeof EXECUTION_COMMAND_KINDS)[number];

/** What became of a command the dispatcher carried out (`dropped`: moot, its execution ended). */
export const COMMAND_OUTCOMES = ['started', 'signalled', 'cancelled', 'dropped'] as const;
export type CommandOutcome = (typeof COMMAND_OUTCOMES)[number];

/** A signal reached the execution's run, or the run has ended (or never began). */
export type SignalOutcome = Extract<CommandOutcome, 'signalled'> | 'ended';
