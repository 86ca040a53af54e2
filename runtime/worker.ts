// `npm run worker`: the Temporal worker alone, against external PostgreSQL, Temporal and SMTP.
import { openOrm } from '../db/orm.js';
import { loadConfig } from './config.js';
import { parseEnv } from './env-settings.js';
import { createLogger } from './logger.js';
import { requireSetting } from './require-setting.js';
import { asyncLocalStorage as activityContext } from '@temporalio/activity';
import { exitOnFatalErrors } from './fatal-errors.js';
import { lowerProcessPriority } from './process-priority.js';
import { installTemporalRuntime, onShutdown, reportReady } from './shutdown.js';
import { temporalSettings } from './temporal-settings.js';
import { startWorker } from './worker-process.js';

// Before any thread is started: threads inherit the priority of the one that starts them.
const priority = lowerProcessPriority(parseEnv(process.env).WORKER_NICE);
installTemporalRuntime();
const config = await loadConfig();
const logger = createLogger({ level: config.logLevel, name: 'worker' });
if (priority.refused) {
  logger.warn(
    { err: priority.refused, nice: priority.nice },
    'Could not lower the CPU priority (WORKER_NICE); running at the one started with',
  );
}
exitOnFatalErrors({
  logger,
  context: () => {
    const info = activityContext.getStore()?.info;
    return info
      ? {
          activity: {
            type: info.activityType,
            id: info.activityId,
            workflowId: info.workflowExecution?.workflowId,
          },
        }
      : undefined;
  },
});
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
reportReady();
onShutdown(logger, async () => {
  await worker.close();
  await orm.close();
});
