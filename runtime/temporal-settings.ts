import type { TemporalSettings } from '../temporal/connection-options.js';
import type { Config } from './config.js';

export function temporalSettings(config: Config, address: string): TemporalSettings {
  return {
    address,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    apiKey: config.temporal.apiKey,
    tls: config.temporal.tls,
  };
}
