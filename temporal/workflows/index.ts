export { contactJob } from './contact-job.workflow.js';
export { dispatchQueuedEmails } from './dispatch-queued-emails.workflow.js';
export { emailDelivery } from './email-delivery.workflow.js';
export { recheckDomains } from './recheck-domains.workflow.js';
export { recomputeSegments } from './recompute-segments.workflow.js';
export { segmentCompute } from './segment-compute.workflow.js';
export { sendEmail } from './send-email.workflow.js';
export { sendSystemEmail } from './send-system-email.workflow.js';
