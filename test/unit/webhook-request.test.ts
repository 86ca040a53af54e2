import { describe, expect, it } from 'vitest';
import { renderWebhookRequest } from '../../domain/automation/webhook-step.service.js';

const variables = {
  contact: { email: 'a@example.com' },
  data: { name: 'Ann "the" Admin', bio: 'line one\nline two\\', n: 3 },
  event: { plan: 'pro' },
};

describe('rendering a WEBHOOK request', () => {
  it('JSON-escapes values put into a JSON body template', () => {
    const request = renderWebhookRequest(
      {
        url: 'https://hooks.example.com/{{ event.plan }}',
        method: 'POST',
        body: '{"name": "{{ data.name }}", "bio": "{{ data.bio }}", "n": {{ data.n }}}',
      },
      variables,
    );
    expect(request.url).toBe('https://hooks.example.com/pro');
    expect(request.headers['Content-Type']).toBe('application/json');
    expect(JSON.parse(request.body as string)).toEqual({
      name: 'Ann "the" Admin',
      bio: 'line one\nline two\\',
      n: 3,
    });
  });

  it('renders the strings of a JSON body and sends it as JSON', () => {
    const request = renderWebhookRequest(
      {
        url: 'https://x.test/',
        method: 'PUT',
        body: { who: '{{ data.name }}', list: ['{{ event.plan }}', 1] },
      },
      variables,
    );
    expect(JSON.parse(request.body as string)).toEqual({
      who: 'Ann "the" Admin',
      list: ['pro', 1],
    });
  });

  it('leaves a text body as text', () => {
    const request = renderWebhookRequest(
      { url: 'https://x.test/', method: 'POST', body: 'Hello {{ data.name }}' },
      variables,
    );
    expect(request.body).toBe('Hello Ann "the" Admin');
    expect(request.headers['Content-Type']).toBe('text/plain; charset=utf-8');
  });

  it('refuses a header value that renders a line break', () => {
    expect(() =>
      renderWebhookRequest(
        { url: 'https://x.test/', method: 'GET', headers: { 'X-Bio': '{{ data.bio }}' } },
        variables,
      ),
    ).toThrow(/line break/);
  });
});
