// `npm run api`: the HTTP API alone, against external PostgreSQL and Temporal.
import { migrate, openOrm } from '../db/orm.js';
import { startApi } from './api-process.js';
import { loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { requireSetting } from './require-setting.js';
import { currentRequest } from '../api/http/request-context.js';
import { exitOnFatalErrors } from './fatal-errors.js';
import { onShutdown, reportReady } from './shutdown.js';
import { temporalSettings } from './temporal-settings.js';

const config = await loadConfig();
const logger = createLogger({ level: config.logLevel, name: 'api' });
exitOnFatalErrors({ logger, context: () => ({ request: currentRequest() }) });
const databaseUrl = requireSetting('DATABASE_URL', config.databaseUrl);
const orm = await openOrm({ url: databaseUrl, poolMax: config.databasePoolMax });
await migrate(orm);
const api = await startApi({
  config,
  logger,
  orm,
  databaseUrl,
  temporal: temporalSettings(config, requireSetting('TEMPORAL_ADDRESS', config.temporal.address)),
});
logger.info({ port: api.port }, 'api listening');
reportReady({
  port: api.port,
  inboundPort: api.inboundPort,
  submissionPort: api.submissionPort,
  submissionTlsPort: api.submissionTlsPort,
});
onShutdown(logger, async () => {
  await api.close();
  await orm.close();
});
