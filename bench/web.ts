// npm run bench:web — the dashboard as a browser gets it, from the production build the API
// serves: Lighthouse (performance and accessibility) on the login page, the contacts list of a
// project holding 100,000 contacts and a template's editor, the JavaScript the first page loads,
// and the time until the contacts list shows its first row in a cold browser context, next to
// the time until the login page shows (the floor: the shell alone, no data). Targets:
// accessibility >= 95, performance >= 90, first-page JS <= 200 KB gzip, contacts visible < 1 s;
// the segment builder with 50 conditions interactive < 1.5 s (its count shown; floor: the login
// page) and a count refresh while editing (POST /segments/preview over every contact) < 300 ms
// (floor: the same route with a filter that scans nothing); the workflow editor with 60 steps
// interactive < 1.5 s, and dragging one of its nodes holds 60 fps (p95 gap between animation
// frames < 17 ms, read in the page while the mouse moves).
// Settings: BENCH_CONTACTS (100000), BENCH_RUNS (7), BENCH_LIGHTHOUSE (mobile,desktop),
// BENCH_GZIP_PROXY=1 (Lighthouse again through a gzipping proxy), CHROMIUM_PATH (/usr/bin/chromium).
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import pg from 'pg';
import { chromium } from 'playwright';
import { SESSION_COOKIE } from '../domain/accounts/sessions.js';
import { ROOT } from '../test/helpers/processes.js';
import {
  CHROMIUM,
  gzipSize,
  HEADLESS,
  runLighthouse,
  timeToVisible,
  type PageAudit,
  type Preset,
} from './lib/browser-audit.js';
import { startGzipProxy } from './lib/gzip-proxy.js';
import { bigSegment, EDITED_FILTER, EMPTY_FILTER, timePreview } from './lib/segment-builder.js';
import { bigWorkflow, dragFrameTimes, EDITOR_READY } from './lib/workflow-editor.js';
import { formatRow, json, startBenchStack } from './lib/stack.js';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const PRESETS = (process.env.BENCH_LIGHTHOUSE ?? 'mobile,desktop')
  .split(',')
  .filter((p): p is Preset => p === 'mobile' || p === 'desktop');
const WIDTHS = [26, 12, 14, 16];
type Audited = { page: string; preset: Preset; audit: PageAudit };
const log = (line: string): void => console.log(line);
const verdict = (ok: boolean): string => (ok ? 'PASS' : 'MISS');
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

const TEMPLATE_BODY = `<html><body><h1>Hello {{ firstName }}</h1><p>What is new this month.</p>
<table>${Array.from({ length: 8 }, (_, i) => `<tr><td>Item ${i}</td><td>{{ plan }}</td></tr>`).join('')}</table>
</body></html>`;

/**
 * 100,000 contacts in one set-based statement, with time-ordered (v7-shaped) ids as the API's,
 * and one template, written here too: the API wants a verified sending domain for its From.
 * Answers the template's id.
 */
async function seed(databaseUrl: string, projectId: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO contacts (id, project_id, email, subscribed, data, subscription_changed_at,
                             created_at, updated_at)
       SELECT (lpad(to_hex(floor(extract(epoch FROM now()) * 1000)::bigint - $2 + i), 12, '0')
                || '7' || substr(h, 1, 3) || '8' || substr(h, 4, 15))::uuid,
              $1, 'reader-' || i || '@bench.test', i % 10 <> 0,
              jsonb_build_object('firstName', 'Reader ' || i,
                                 'plan', CASE WHEN i % 3 = 0 THEN 'pro' ELSE 'free' END),
              at, at, at
         FROM generate_series(1, $2::int) AS i,
              LATERAL (SELECT md5(i::text) AS h,
                              now() - make_interval(secs => $2 - i) AS at) AS r`,
      [projectId, CONTACTS],
    );
    await client.query('VACUUM ANALYZE contacts');
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO templates (id, project_id, name, subject, body, type, from_address,
                              created_at, updated_at)
       VALUES (gen_random_uuid(), $1, 'Monthly news', 'News for {{ firstName }}', $2,
               'MARKETING', 'news@bench.test', now(), now())
       RETURNING id`,
      [projectId, TEMPLATE_BODY],
    );
    return (rows[0] as { id: string }).id;
  } finally {
    await client.end();
  }
}

/** A user (its session cookie) and a project, through the public API. */
async function benchAccount(apiUrl: string): Promise<{ cookie: string; projectId: string }> {
  const signup = await json(`${apiUrl}/auth/signup`, {
    method: 'POST',
    body: JSON.stringify({ email: `web-${Date.now()}@bench.test`, password: 'bench password' }),
  });
  const cookie = signup.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] as string)
    .find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!cookie) throw new Error(`signup: ${signup.status} ${JSON.stringify(signup.body)}`);
  const project = await json(`${apiUrl}/users/@me/projects`, {
    method: 'POST',
    headers: { Cookie: cookie },
    body: JSON.stringify({ name: 'Web bench' }),
  });
  if (project.status !== 201) throw new Error(`project: ${project.status}`);
  return { cookie, projectId: project.body.id as string };
}

const median = (sorted: number[]): number => sorted[Math.floor(sorted.length / 2)] as number;
const sum = (scripts: PageAudit['scripts']): number =>
  scripts.reduce((total, s) => total + s.transferSize, 0);
const CONTACT_ROW = `[...document.querySelectorAll('tbody tr, [role="row"]')].some((row) => row.textContent.includes('@bench.test'))`;
const BUILDER_READY = `document.querySelectorAll('[role="group"][aria-label^="Condition "]').length >= 50 && /\\d/.test(document.querySelector('[data-testid="preview-count"]')?.textContent ?? '')`;
const LOGIN_FORM = `[...document.querySelectorAll('h1')].some((h) => h.textContent === 'Log in') && document.querySelector('input[type="password"]')`;

log('Building the dashboard (npm run build:web)...');
execFileSync('npm', ['run', 'build:web', '--silent'], { cwd: ROOT, stdio: 'inherit' });
const stack = await startBenchStack(log, { env: { LOG_LEVEL: 'warn' } });
try {
  const account = await benchAccount(stack.apiUrl);
  log(`\nSeeding ${CONTACTS.toLocaleString('en')} contacts with one INSERT ... SELECT...`);
  const seeded = performance.now();
  const templateId = await seed(stack.databaseUrl, account.projectId);
  log(`seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);

  const paths = [
    { label: 'login page', path: '/app/login' },
    { label: `contacts (${CONTACTS.toLocaleString('en')})`, path: '/app/contacts' },
    { label: 'template editor', path: `/app/templates/${templateId}` },
  ];
  /** Lighthouse on every page with every preset, the session cookie on all but the login page. */
  const auditPages = async (base: string): Promise<Audited[]> => {
    log(formatRow(['', 'performance', 'accessibility', 'JS transferred'], WIDTHS));
    const audits: Audited[] = [];
    for (const [i, p] of paths.entries()) {
      for (const preset of PRESETS) {
        const cookie = i === 0 ? undefined : account.cookie;
        const audit = await runLighthouse(`${base}${p.path}`, preset, cookie);
        audits.push({ page: p.label, preset, audit });
        const cells = [`${p.label} ${preset}`, audit.performance, audit.accessibility];
        log(formatRow([...cells, kb(sum(audit.scripts))], WIDTHS));
      }
    }
    return audits;
  };
  log(`\nLighthouse, one run per page and preset, as the API serves the build`);
  const audits = await auditPages(stack.apiUrl);
  if (process.env.BENCH_GZIP_PROXY === '1') {
    log(`\nThe same through a loopback proxy that gzips (what compression by the API would give)`);
    const proxy = await startGzipProxy(stack.apiUrl);
    await auditPages(proxy.url).finally(proxy.stop);
  }
  log('\nAudits under 0.9:');
  for (const { page, preset, audit } of audits) {
    log(`  ${page} (${preset}): ${audit.failing.join(', ') || 'none'}`);
  }

  const first = (audits[0] as (typeof audits)[number]).audit;
  const transferred = sum(first.scripts);
  const gzipped = await gzipSize(first.scripts.map((s) => s.url));
  log(`\nFirst page (login): ${first.scripts.length} scripts`);
  for (const s of first.scripts) {
    log(`  ${kb(s.transferSize).padStart(10)}  ${new URL(s.url).pathname}`);
  }
  log(`  transferred as served: ${kb(transferred)}; the same files gzipped: ${kb(gzipped)}`);

  const segmentId = await bigSegment(stack.apiUrl, account.cookie, account.projectId);
  const workflowId = await bigWorkflow(stack.apiUrl, account.cookie, account.projectId);
  const previewArgs = {
    apiUrl: stack.apiUrl,
    cookie: account.cookie,
    projectId: account.projectId,
  };
  const countTimes = await timePreview({ ...previewArgs, filter: EDITED_FILTER, runs: RUNS * 3 });
  const floorTimes = await timePreview({ ...previewArgs, filter: EMPTY_FILTER, runs: RUNS * 3 });

  const app = `${stack.apiUrl}/app`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: HEADLESS });
  const contactsTimes = await timeToVisible(browser, {
    url: `${app}/contacts`,
    probe: CONTACT_ROW,
    runs: RUNS,
    cookie: account.cookie,
  });
  const loginTimes = await timeToVisible(browser, {
    url: `${app}/login`,
    probe: LOGIN_FORM,
    runs: RUNS,
  });
  const builderTimes = await timeToVisible(browser, {
    url: `${app}/segments/${segmentId}`,
    probe: BUILDER_READY,
    runs: RUNS,
    cookie: account.cookie,
  });
  const editorTimes = await timeToVisible(browser, {
    url: `${app}/workflows/${workflowId}`,
    probe: EDITOR_READY,
    runs: RUNS,
    cookie: account.cookie,
  });
  const frameTimes = await dragFrameTimes(browser, {
    url: `${app}/workflows/${workflowId}`,
    cookie: account.cookie,
  });
  await browser.close();
  const contactsMs = median(contactsTimes);
  log(`\nTime to visible: ms from navigation start, cold context, ${RUNS} runs`);
  const timeWidths = [36, 10, 10, 10];
  log(formatRow(['', 'median', 'min', 'max'], timeWidths));
  for (const [label, t] of [
    ['contacts list, first row', contactsTimes],
    ['login page (floor)', loginTimes],
    ['segment builder, 50 conditions', builderTimes],
    ['workflow editor, 60 steps', editorTimes],
    [`segment count (${CONTACTS.toLocaleString('en')})`, countTimes],
    ['segment count, empty filter (floor)', floorTimes],
  ] as const) {
    const row = [label, median(t), t[0] ?? 0, t.at(-1) ?? 0].map((c) =>
      typeof c === 'number' ? c.toFixed(0) : c,
    );
    log(formatRow(row, timeWidths));
  }
  log(`ratio contacts / login (floor): ${(contactsMs / median(loginTimes)).toFixed(2)}`);
  log(`ratio builder / login (floor): ${(median(builderTimes) / median(loginTimes)).toFixed(2)}`);
  log(`ratio editor / login (floor): ${(median(editorTimes) / median(loginTimes)).toFixed(2)}`);
  const p95Frame = frameTimes[Math.floor(frameTimes.length * 0.95)] ?? Number.NaN;
  log(
    `dragging a node of the 60-step graph: ${frameTimes.length} frames, median ${median(frameTimes).toFixed(1)} ms, p95 ${p95Frame.toFixed(1)} ms (floor: 16.7 ms at 60 fps)`,
  );
  log(
    `ratio count / empty filter (floor): ${(median(countTimes) / median(floorTimes)).toFixed(2)}`,
  );

  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  log(`\nTargets (load average ${load})`);
  const minA11y = Math.min(...audits.map((a) => a.audit.accessibility));
  log(`  accessibility >= 95 on every page: lowest ${minA11y}  ${verdict(minA11y >= 95)}`);
  for (const preset of PRESETS) {
    const perf = Math.min(
      ...audits.filter((a) => a.preset === preset).map((a) => a.audit.performance),
    );
    log(`  performance >= 90 on every page, ${preset}: lowest ${perf}  ${verdict(perf >= 90)}`);
  }
  log(`  first-page JS <= 200 KB gzip: ${kb(gzipped)}  ${verdict(gzipped <= 200 * 1024)}`);
  log(
    `  first-page JS as the server sends it (uncompressed when it does not gzip) <= 200 KB: ${kb(transferred)}  ${verdict(transferred <= 200 * 1024)}`,
  );
  log(`  contacts list visible < 1 s: ${contactsMs.toFixed(0)} ms  ${verdict(contactsMs < 1000)}`);
  const builderMs = median(builderTimes);
  log(
    `  segment builder (50 conditions) interactive < 1.5 s: ${builderMs.toFixed(0)} ms  ${verdict(builderMs < 1500)}`,
  );
  const editorMs = median(editorTimes);
  log(
    `  workflow editor (60 steps) interactive < 1.5 s: ${editorMs.toFixed(0)} ms  ${verdict(editorMs < 1500)}`,
  );
  log(
    `  dragging holds 60 fps (p95 frame < 17 ms): ${p95Frame.toFixed(1)} ms  ${verdict(p95Frame < 17)}`,
  );
  const countMs = median(countTimes);
  log(
    `  count refresh while editing < 300 ms: ${countMs.toFixed(0)} ms  ${verdict(countMs < 300)}`,
  );
} finally {
  await stack.stop();
}
