import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import type { Browser } from 'playwright';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HEADLESS = ['--headless', '--no-sandbox', '--disable-gpu'];
export type Preset = 'mobile' | 'desktop';

export interface PageAudit {
  performance: number;
  accessibility: number;
  scripts: { url: string; transferSize: number }[];
  /** The audits under 0.9 (what pulls a score down), with Lighthouse's figure. */
  failing: string[];
}

/**
 * One Lighthouse run in its own headless Chromium, with the preset's throttling (mobile: the
 * default, simulated slow 4G and a 4x slower CPU; desktop: its desktop config) and the session
 * cookie on every request when given.
 */
export async function runLighthouse(
  url: string,
  preset: Preset,
  cookie?: string,
): Promise<PageAudit> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: HEADLESS });
  try {
    const result = await lighthouse(
      url,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
      },
      preset === 'desktop' ? desktopConfig : undefined,
    );
    if (!result) throw new Error(`lighthouse gave no result for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.message}`);
    const details = lhr.audits['network-requests']?.details;
    const items = details && details.type === 'table' ? details.items : [];
    const scripts = items
      .filter((item) => item.resourceType === 'Script')
      .map((item) => ({ url: String(item.url), transferSize: Number(item.transferSize ?? 0) }));
    const failing = Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative')
      .map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ''}`);
    const score = (id: string): number => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      scripts,
      failing,
    };
  } finally {
    chrome.kill();
  }
}

/** The gzip size of each script as a compressing server would send it (level 6), summed. */
export async function gzipSize(urls: string[]): Promise<number> {
  let total = 0;
  for (const url of urls) {
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    total += gzipSync(body, { level: 6 }).length;
  }
  return total;
}

type Stamped = { __visibleAt?: number };

// Run by the page before its own scripts: the time since navigation start of the frame after
// `probe` (a DOM expression) first holds.
const stampWhen = (probe: string): string => `
  new MutationObserver((_, observer) => {
    if (!(${probe})) return;
    observer.disconnect();
    requestAnimationFrame(() => { window.__visibleAt = performance.now(); });
  }).observe(document, { childList: true, subtree: true, characterData: true });`;

/**
 * Milliseconds from navigation start to the frame showing `probe`, once per run, each in a cold
 * browser context (no cache, no storage), sorted; one unmeasured run first warms the server.
 */
export async function timeToVisible(
  browser: Browser,
  { url, probe, runs, cookie }: { url: string; probe: string; runs: number; cookie?: string },
): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run <= runs; run += 1) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    if (cookie) {
      const [name, value] = cookie.split(/=(.*)/s) as [string, string];
      await context.addCookies([{ name, value, url: new URL(url).origin }]);
    }
    const page = await context.newPage();
    await page.addInitScript({ content: stampWhen(probe) });
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => (globalThis as Stamped).__visibleAt !== undefined, undefined, {
      timeout: 30_000,
    });
    const at = await page.evaluate(() => (globalThis as Stamped).__visibleAt ?? Number.NaN);
    if (run > 0) times.push(at);
    await context.close();
  }
  return times.sort((a, b) => a - b);
}
