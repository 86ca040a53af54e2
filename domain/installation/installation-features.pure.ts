/** Which integrations this installation has (GET /config, no authentication). */
export interface InstallationFeatures {
  signup: boolean;
  oauth: { github: boolean; google: boolean };
  billing: boolean;
  storage: boolean;
  smtp: boolean;
  tracking: boolean;
}

export function installationFeatures({
  signupsDisabled,
  billingConfigured,
}: {
  signupsDisabled: boolean;
  billingConfigured: boolean;
}): InstallationFeatures {
  return {
    signup: !signupsDisabled,
    oauth: { github: false, google: false },
    billing: billingConfigured,
    // Uploads are kept under DATA_DIR; S3-compatible storage is not configured.
    storage: false,
    smtp: true,
    tracking: true,
  };
}
