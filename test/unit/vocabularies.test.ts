import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/processes.js';
import { applicationSources, vocabularyProblems } from '../helpers/vocabularies.js';

describe('vocabularies (statuses, types, roles)', () => {
  it('are each declared once, in a pure domain module, and imported everywhere else', async () => {
    expect(vocabularyProblems(await applicationSources(ROOT))).toEqual([]);
  });

  it('finds a vocabulary spelled out again, declared twice, or declared inline in the domain', () => {
    const problems = vocabularyProblems([
      {
        file: 'domain/sending/email-status.pure.ts',
        text: "export const EMAIL_STATUSES = ['QUEUED', 'SENT', 'FAILED'] as const;",
      },
      {
        file: 'domain/jobs/job-status.pure.ts',
        text: "export type JobStatus = 'QUEUED' | 'FAILED' | 'SENT';",
      },
      {
        file: 'db/sql/emails.sql.ts',
        text: "export interface Row { status: 'QUEUED' | 'SENT' }",
      },
      {
        file: 'api/routes/emails.schemas.ts',
        text: "export const s = z.enum(['SENT', 'FAILED']);",
      },
      {
        file: 'domain/projects/security.service.ts',
        text: "export type Health = 'HEALTHY' | 'WARNING';",
      },
      { file: 'api/routes/a.routes.ts', text: "type Method = 'get' | 'post';" },
      { file: 'api/http/b.ts', text: "export function f(m: 'get' | 'post') { return m; }" },
    ]);
    expect(problems).toEqual([
      expect.stringMatching(/^domain\/jobs\/job-status\.pure\.ts:1 declares .* again/),
      expect.stringMatching(
        /^db\/sql\/emails\.sql\.ts:1 spells out 'QUEUED' \| 'SENT': use EMAIL_STATUSES/,
      ),
      expect.stringMatching(
        /^api\/routes\/emails\.schemas\.ts:1 spells out .*: use EMAIL_STATUSES/,
      ),
      expect.stringMatching(/^domain\/projects\/security\.service\.ts:1 declares .* inline/),
      expect.stringMatching(
        /^api\/http\/b\.ts:1 repeats 'get' \| 'post' \(see api\/routes\/a\.routes\.ts:1\)/,
      ),
    ]);
  });

  it('lets pure modules narrow a vocabulary and utility types name keys', () => {
    expect(
      vocabularyProblems([
        {
          file: 'domain/sending/email-status.pure.ts',
          text: [
            "export const EMAIL_STATUSES = ['QUEUED', 'SENT', 'FAILED'] as const;",
            "export const ACCEPTED = ['QUEUED', 'SENT'] as const satisfies readonly string[];",
            "export type Done = Extract<EmailStatus, 'SENT' | 'FAILED'>;",
          ].join('\n'),
        },
        {
          file: 'domain/templates/templates.service.ts',
          text: "export interface V extends Omit<T, 'fromName' | 'replyTo'> {}",
        },
      ]),
    ).toEqual([]);
  });
});
