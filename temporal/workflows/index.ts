export { contactJob } from './contact-job.workflow.js';
export { sendSystemEmail } from './send-system-email.workflow.js';
