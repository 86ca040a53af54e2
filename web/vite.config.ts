import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API serves the build at /app/; in development Vite serves the app and forwards every
// other path (the API's own routes) to the API.
const API = process.env.API_URL ?? 'http://localhost:3000';

export default defineConfig({
  root: import.meta.dirname,
  base: '/app/',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    chunkSizeWarningLimit: 700,
  },
  server: {
    proxy: {
      '^/(?!app(/|$)|@|node_modules/|src/)': {
        target: API,
        // The API refuses cookie writes from another origin than PUBLIC_URL: the dev server
        // speaks for the page as the API's own origin.
        configure: (proxy) => {
          proxy.on('proxyReq', (request) => {
            if (request.getHeader('origin')) request.setHeader('origin', new URL(API).origin);
          });
        },
      },
    },
  },
});
