/** Which integrations this installation has (GET /config, no authentication). */
export interface InstallationFeatures {
  signup: boolean;
  oauth: { github: boolean; google: boolean };
  billing: boolean;
  storage: boolean;
  smtp: boolean;
  tracking: boolean;
}

/** Where apps send mail over SMTP (GET /config), when SMTP submission is on. */
export interface SmtpSubmissionInfo {
  host: string;
  /** The port with STARTTLS (587 by convention), when it listens. */
  port: number | null;
  /** The port with implicit TLS (465 by convention), when it listens. */
  tlsPort: number | null;
  /** The SHA-256 fingerprint of the certificate both present. */
  certificateSha256: string;
}

export function installationFeatures({
  signupsDisabled,
  billingConfigured,
  smtpSubmission,
}: {
  signupsDisabled: boolean;
  billingConfigured: boolean;
  /** SMTP submission listens. */
  smtpSubmission: boolean;
}): InstallationFeatures {
  return {
    signup: !signupsDisabled,
    oauth: { github: false, google: false },
    billing: billingConfigured,
    // Uploads are kept under DATA_DIR; S3-compatible storage is not configured.
    storage: false,
    smtp: smtpSubmission,
    tracking: true,
  };
}
