/** Hands the email-delivery loop new settings; it continues as new with them. */
export const CONFIGURE_EMAIL_DELIVERY = 'configureEmailDelivery';
/** Hands the automation dispatch loop new settings; it continues as new with them. */
export const CONFIGURE_AUTOMATION_DISPATCH = 'configureAutomationDispatch';
/** An event for a running execution (its WAIT_FOR_EVENT steps wait for these). */
export const EXECUTION_EVENT = 'executionEvent';
