import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import type { SharedStack } from '../helpers/global-setup.js';
import { launchStack, type TestStack } from '../helpers/launch-stack.js';
import { SHARED_STACK_ENV } from './global-setup.js';

/** The zone of the domains the browser tests verify; the DNS server answers for it alone. */
export const DNS_ZONE = 'browser.test';
const SCREENSHOTS = path.join(import.meta.dirname, 'screenshots');

interface WorkerFixtures {
  dns: DnsServer;
  stack: TestStack;
}

interface TestFixtures {
  /** Axe on the page as it is now: no serious or critical violation. */
  checkA11y: (page?: Page) => Promise<void>;
  /** Full-page screenshots at 1280 px and 390 px wide, into test/browser/screenshots/. */
  snap: (name: string, page?: Page) => Promise<void>;
}

/** An address of the benchmarking range (198.18.0.0/15) for a test: never dialled, only named. */
function clientAddressOf(testId: string): string {
  const [a = 0, b = 0] = createHash('sha256').update(testId).digest();
  return `198.18.${a}.${b}`;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  dns: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from this pattern
    async ({}, use) => {
      const dns = await startDnsServer({ zones: [DNS_ZONE] });
      await use(dns);
      await dns.stop();
    },
    { scope: 'worker' },
  ],
  stack: [
    async ({ dns }, use) => {
      const shared = JSON.parse(process.env[SHARED_STACK_ENV] ?? 'null') as SharedStack | null;
      if (!shared)
        throw new Error('Run through playwright test: its global setup starts the services');
      const stack = await launchStack({ shared, env: { DNS_SERVERS: dns.address } });
      await use(stack);
      await stack.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ stack }, use) => {
    await use(stack.env.PUBLIC_URL);
  },
  // Each test is a client of its own address (the stack trusts X-Forwarded-For, as behind a
  // proxy): the suite signs up more users than one address may in an hour, and a retried test
  // signs up again.
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from this pattern
  extraHTTPHeaders: async ({}, use, testInfo) => {
    await use({ 'X-Forwarded-For': clientAddressOf(testInfo.testId) });
  },
  checkA11y: async ({ page }, use) => {
    await use(async (target = page) => {
      // Colours half-way through a transition (a theme just switched) are neither theme's:
      // let the running transitions end (not animations: a spinner never does).
      await target.evaluate(
        'Promise.all(document.getAnimations().filter((a) => a instanceof CSSTransition).map((a) => a.finished.catch(() => undefined)))',
      );
      // Legacy mode without frames: axe would wait forever on the sandboxed preview frames.
      const results = await new AxeBuilder({ page: target })
        .setLegacyMode(true)
        .options({ iframes: false })
        .analyze();
      const serious = results.violations.filter(
        (v) => v.impact === 'serious' || v.impact === 'critical',
      );
      expect(
        serious.map(
          (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
        ),
        `axe on ${target.url()}`,
      ).toEqual([]);
    });
  },
  snap: async ({ page }, use, testInfo) => {
    await mkdir(SCREENSHOTS, { recursive: true });
    const slug = path.basename(testInfo.file, '.spec.ts');
    await use(async (name, target = page) => {
      const size = target.viewportSize() ?? { width: 1280, height: 800 };
      for (const width of [1280, 390]) {
        // The whole page by a viewport as tall as the page: a fullPage capture leaves the
        // sandboxed (out-of-process) preview frames blank.
        await target.setViewportSize({ width, height: 800 });
        // A string expression: the test code compiles without the DOM library.
        const height = Number(await target.evaluate('document.documentElement.scrollHeight'));
        await target.setViewportSize({ width, height: Math.max(800, Math.min(height, 6000)) });
        // Layouts that follow the size (the workflow canvas refits 50 ms after a resize) settle
        // before the picture; only what the screenshot shows depends on it, never a verdict.
        await target.evaluate(
          'new Promise((done) => setTimeout(() => requestAnimationFrame(() => done(null)), 120))',
        );
        await target.screenshot({ path: path.join(SCREENSHOTS, `${slug}--${name}--${width}.png`) });
      }
      await target.setViewportSize(size);
    });
  },
});

export { expect };
