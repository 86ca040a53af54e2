export { sendSystemEmail } from './send-system-email.workflow.js';
