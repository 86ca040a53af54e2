// Workflow patch ids (`patched(id)`): a change to what a workflow schedules is made behind one,
// so runs recorded before it replay along their old path. Remove a patch (deprecatePatch, then
// delete) only when no run that could replay the old path remains.

/** dispatchQueuedEmails calls `ensureEmailDelivery` instead of the zero-count `dispatchQueuedEmails`. */
export const ENSURE_EMAIL_DELIVERY_PATCH = 'ensure-email-delivery';

/** dispatchQueuedEmails also makes sure the automation dispatch loop runs. */
export const ENSURE_AUTOMATION_DISPATCH_PATCH = 'ensure-automation-dispatch';

/**
 * An execution runs a remote step through the one generic `attemptRemoteStep` activity (the step
 * registry says what each type's attempt does) instead of `attemptWebhook`.
 */
export const REMOTE_STEP_PATCH = 'generic-remote-step';
