// `npm run worker`: the Temporal worker alone, against external PostgreSQL, Temporal and SMTP.
import { openOrm } from '../db/orm.js';
import { loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { requireSetting } from './require-setting.js';
import { installTemporalRuntime, onShutdown } from './shutdown.js';
import { temporalSettings } from './temporal-settings.js';
import { startWorker } from './worker-process.js';

installTemporalRuntime();
const config = await loadConfig();
const logger = createLogger({ level: config.logLevel, name: 'worker' });
const databaseUrl = requireSetting('DATABASE_URL', config.databaseUrl);
const orm = await openOrm({ url: databaseUrl, poolMax: config.databasePoolMax });
const worker = await startWorker({
  config,
  logger,
  orm,
  temporal: temporalSettings(config, requireSetting('TEMPORAL_ADDRESS', config.temporal.address)),
  smtpUrl: requireSetting('SMTP_URL', config.smtpUrl),
  databaseUrl,
});
onShutdown(logger, async () => {
  await worker.close();
  await orm.close();
});
