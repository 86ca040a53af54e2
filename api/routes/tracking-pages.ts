// Pages behind the links in emails. A GET only shows a page (mail scanners open links); the
// page's button makes the POST that changes the subscription.

export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">
<style>body{font-family:sans-serif;max-width:30rem;margin:4rem auto;padding:0 1rem}button{font-size:1rem;padding:.5rem 1rem}</style>
</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

export const form = (action: string, label: string): string =>
  `<form method="post" action="${escapeHtml(action)}"><button type="submit">${escapeHtml(label)}</button></form>`;

export const confirmUnsubscribePage = (email: string, action: string): string =>
  page(
    'Unsubscribe',
    `<p>Stop marketing emails to <strong>${escapeHtml(email)}</strong>?</p>${form(action, 'Unsubscribe')}`,
  );

export const confirmSubscribePage = (email: string, action: string): string =>
  page(
    'Subscribe again',
    `<p>Receive marketing emails at <strong>${escapeHtml(email)}</strong> again?</p>${form(action, 'Subscribe')}`,
  );

export const managePage = (
  email: string,
  subscribed: boolean,
  unsubscribeAction: string,
  subscribeAction: string,
): string =>
  page(
    'Email preferences',
    `<p><strong>${escapeHtml(email)}</strong> is ${subscribed ? 'subscribed to' : 'unsubscribed from'} marketing emails.</p>${
      subscribed ? form(unsubscribeAction, 'Unsubscribe') : form(subscribeAction, 'Subscribe again')
    }`,
  );

export const donePage = (email: string, subscribed: boolean): string =>
  page(
    subscribed ? 'Subscribed' : 'Unsubscribed',
    `<p>${escapeHtml(email)} is now ${subscribed ? 'subscribed' : 'unsubscribed'}.</p>`,
  );
