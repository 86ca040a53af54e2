import { describe, expect, it } from 'vitest';
import { systemEmailContent } from '../../domain/system-email/system-email-content.pure.js';

describe('system email content', () => {
  it('puts the link in both parts', () => {
    const link = 'https://mail.example.com/auth/verify-email?token=abc';
    const content = systemEmailContent({ kind: 'VERIFY_EMAIL', link });
    expect(content.subject).toBe('Verify your email address');
    expect(content.text).toContain(link);
    expect(content.html).toContain(link);
  });

  it('escapes a project name in the HTML part', () => {
    const content = systemEmailContent({
      kind: 'PROJECT_INVITATION',
      link: 'https://x.test',
      projectName: '<script>alert(1)</script>',
    });
    expect(content.html).not.toContain('<script>');
    expect(content.html).toContain('&#60;script&#62;');
  });
});
