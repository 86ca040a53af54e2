// `npm run build:server`: the server bundle (dist/server/) that `npm start`, `npm run api` and
// `npm run worker` run; each of them builds it first, so it always matches the sources.
import { buildServerBundle } from './server-bundle.js';

await buildServerBundle();
