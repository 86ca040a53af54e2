export interface TemporalSettings {
  address: string;
  namespace: string;
  taskQueue: string;
  apiKey?: string;
  tls: boolean;
}

/** Shared by the client and the worker: Temporal Cloud needs TLS and an API key. */
export function connectionOptions(settings: TemporalSettings) {
  return {
    address: settings.address,
    tls: settings.tls || settings.apiKey ? {} : undefined,
    apiKey: settings.apiKey,
  };
}
