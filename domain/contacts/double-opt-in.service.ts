import { setColumnSetting } from '../projects/column-settings.service.js';
import { findSendContext } from '../../db/sql/queue-email.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { matchSenderDomain, unverifiedSenderProblem } from '../domains/sender-domain.pure.js';
import { notFound, validationError } from '../shared/errors.js';
import {
  CONFIRM_URL_VARIABLE,
  doubleOptInOf,
  type DoubleOptInSettings,
} from './double-opt-in-settings.pure.js';

/**
 * Replaces the setting (a field left out takes its default) once the confirmation email it
 * names can be sent: a chosen template must exist, link `{{ confirmUrl }}` and send from a
 * verified domain; the built-in email needs a verified domain to be sent from when it is on.
 */
export async function setDoubleOptIn({
  sql,
  projectId,
  settings,
}: {
  sql: Sql;
  projectId: string;
  settings: Partial<DoubleOptInSettings>;
}): Promise<DoubleOptInSettings> {
  const whole = doubleOptInOf(settings);
  const { template, verifiedDomains } = await findSendContext(sql, {
    projectId,
    templateId: whole.templateId ?? undefined,
  });
  if (whole.templateId) {
    if (!template) throw notFound('Template');
    if (!template.body.includes(CONFIRM_URL_VARIABLE)) {
      throw validationError({
        field: 'templateId',
        message: `The template's body must link to {{ ${CONFIRM_URL_VARIABLE} }}, the confirmation link`,
        code: 'missing_confirm_url',
      });
    }
    if (!matchSenderDomain(verifiedDomains, template.from_address)) {
      throw validationError(unverifiedSenderProblem(template.from_address, 'templateId'));
    }
  } else if (whole.enabled && verifiedDomains.length === 0) {
    throw validationError({
      field: 'enabled',
      message: 'The confirmation email needs a sender: verify a sending domain first',
      code: 'unverified_domain',
    });
  }
  await setColumnSetting({ sql, projectId, setting: 'double_opt_in', value: whole });
  return whole;
}
