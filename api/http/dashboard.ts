import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Context, Middleware } from 'koa';
import { PROJECT_ROOT } from '../../runtime/project-root.js';
import { compressedFiles, type ContentEncoding } from './compressed-file.js';

export const DASHBOARD_PATH = '/app/';
// From the project's folder: this module runs from api/http/ under tsx and from dist/server/.
const DEFAULT_DIST = path.join(PROJECT_ROOT, 'web', 'dist');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.map': 'application/json',
};

/**
 * No inline script anywhere in the dashboard. Styles may be inline (the editor and the dialogs
 * set them); user-written HTML only ever appears in `sandbox=""` frames (scripts off, opaque
 * origin), whose images may come from anywhere.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  'img-src * data: blob:',
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self' about: data:",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

async function fileIn(dist: string, relative: string): Promise<string | undefined> {
  const file = path.resolve(dist, `.${path.posix.normalize(`/${relative}`)}`);
  if (!file.startsWith(dist + path.sep)) return undefined;
  const info = await stat(file).catch(() => undefined);
  return info?.isFile() ? file : undefined;
}

type Compressed = ReturnType<typeof compressedFiles>;

async function send(
  ctx: Context,
  compressed: Compressed,
  file: string,
  cacheControl: string,
): Promise<void> {
  ctx.type = TYPES[path.extname(file)] ?? 'application/octet-stream';
  ctx.set('Cache-Control', cacheControl);
  ctx.set('Content-Security-Policy', DASHBOARD_CSP);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'same-origin');
  if (compressed.compressible(file)) {
    ctx.vary('Accept-Encoding');
    const encoding = ctx.acceptsEncodings('br', 'gzip', 'identity');
    if (encoding === 'br' || encoding === 'gzip') {
      ctx.set('Content-Encoding', encoding satisfies ContentEncoding);
      ctx.body = await compressed.get(file, encoding);
      return;
    }
  }
  ctx.body = createReadStream(file);
}

/**
 * The dashboard build (web/dist) at /app/: hashed assets cached for a year, index.html never
 * cached and answered for every other /app/ path (the app routes in the browser), and `/`
 * sends a browser there; text files go compressed (brotli or gzip) to a client that accepts it.
 * API routes keep their paths.
 */
export function dashboard({ dist = DEFAULT_DIST }: { dist?: string } = {}): Middleware {
  const compressed = compressedFiles();
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/' && ctx.accepts(['json', 'html']) === 'html' && ctx.get('Accept')) {
      ctx.redirect(DASHBOARD_PATH);
      return;
    }
    if (ctx.path === '/app') {
      ctx.redirect(DASHBOARD_PATH);
      return;
    }
    if (!ctx.path.startsWith(DASHBOARD_PATH)) return next();

    const relative = ctx.path.slice(DASHBOARD_PATH.length);
    if (relative.startsWith('assets/')) {
      const asset = await fileIn(dist, relative);
      if (!asset) return next(); // a stale hashed name: 404, never the page
      await send(ctx, compressed, asset, 'public, max-age=31536000, immutable');
      return;
    }
    const file = (relative && (await fileIn(dist, relative))) || (await fileIn(dist, 'index.html'));
    if (!file) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The dashboard is not built: run `npm run build:web`.\n';
      return;
    }
    await send(ctx, compressed, file, 'no-cache');
  };
}
