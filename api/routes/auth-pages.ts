// Email links land on these small pages. Opening a link never changes anything (mail scanners
// prefetch links); the page's button makes the POST.

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string, script: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>body{font-family:sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem}button,input{font-size:1rem;padding:.5rem}</style>
</head><body><h1>${escapeHtml(title)}</h1>${body}<p id="result" role="status"></p>
<script>${script}</script></body></html>`;
}

const submit = (path: string, fields: string): string => `
const token = new URLSearchParams(location.search).get('token') || '';
document.querySelector('form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const res = await fetch('${path}', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token, ${fields} }) });
  const out = document.getElementById('result');
  out.textContent = res.ok ? 'Done. You can close this page.' : ((await res.json()).error || {}).message || 'Failed';
});`;

export const verifyEmailPage = (): string =>
  page(
    'Verify your email',
    '<form><button type="submit">Verify my email</button></form>',
    submit('/auth/verify-email', ''),
  );

export const resetPasswordPage = (): string =>
  page(
    'Choose a new password',
    '<form><input type="password" name="password" minlength="8" required placeholder="New password"> <button type="submit">Save</button></form>',
    submit('/auth/reset-password', "password: document.querySelector('input').value"),
  );
