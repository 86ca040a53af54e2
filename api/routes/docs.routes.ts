import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import swaggerUi from 'swagger-ui-dist';
import { notFound } from '../../domain/shared/errors.js';
import { defineRoute } from '../http/route.js';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css',
  'swagger-ui-bundle.js': 'application/javascript',
  'swagger-ui-standalone-preset.js': 'application/javascript',
  'favicon-32x32.png': 'image/png',
};

// Served from node_modules: the reference page works offline, with no CDN.
const DOCS_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Mailwright API reference</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"><link rel="icon" href="/docs/assets/favicon-32x32.png">
</head><body><div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true,
presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });</script>
</body></html>`;

export const docsRoutes = ({ document }: { document: () => unknown }) => [
  defineRoute({
    method: 'get',
    path: '/openapi.json',
    summary: 'This API as an OpenAPI 3.1 document',
    tag: 'Operations',
    auth: 'none',
    rateLimit: false,
    handler: async () => document(),
  }),
  defineRoute({
    method: 'get',
    path: '/docs',
    summary: 'API reference page',
    tag: 'Operations',
    auth: 'none',
    rateLimit: false,
    produces: 'text/html',
    handler: async ({ ctx }) => {
      ctx.type = 'text/html';
      return DOCS_PAGE;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/docs/assets/:file',
    summary: 'Static files of the reference page',
    tag: 'Operations',
    auth: 'none',
    rateLimit: false,
    params: z.object({ file: z.string() }),
    produces: 'application/octet-stream',
    handler: async ({ params, ctx }) => {
      // An own key only: `constructor` or `toString` would find Object.prototype's.
      const type = Object.hasOwn(ASSETS, params.file) ? ASSETS[params.file] : undefined;
      if (!type) throw notFound('File');
      ctx.type = type;
      ctx.set('Cache-Control', 'public, max-age=86400');
      return readFile(path.join(swaggerUi.getAbsoluteFSPath(), params.file));
    },
  }),
];
