import { X509Certificate, createVerify } from 'node:crypto';
import { DomainError, unavailable } from '../shared/errors.js';
import { cleanStorableText } from '../shared/storable-text.pure.js';
import type { FetchText } from '../shared/ports.js';
import type { Feedback } from './delivery-feedback.pure.js';
import { applyDeliveryFeedback, type FeedbackSettings } from './delivery-feedback.service.js';
import {
  SNS_SIGNATURE_ALGORITHMS,
  type SnsMessageType,
  type SnsOutcome,
  type SnsSignatureVersion,
} from './sns-message.pure.js';

export interface SnsEnvelope {
  Type: SnsMessageType;
  MessageId: string;
  TopicArn: string;
  Message: string;
  Timestamp: string;
  Signature: string;
  SignatureVersion: SnsSignatureVersion;
  SigningCertURL: string;
  Subject?: string;
  SubscribeURL?: string;
  Token?: string;
}

const rejected = (message: string): DomainError => new DomainError('UNAUTHORIZED', message);

/**
 * An SNS URL fetched: one that answers but not with the text (a 4xx, 5xx, redirect) is the
 * fetcher's 401; one that cannot be reached at all (refused, reset, timed out) is a 503, which
 * SNS retries.
 */
async function fetchFromSns(fetchText: FetchText, url: string, what: string): Promise<string> {
  try {
    return await fetchText(url);
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw unavailable(
      `The ${what} could not be fetched`,
      'Try again later; SNS retries on its own.',
      error,
    );
  }
}

/** A certificate that cannot be read, like a signature that does not match, is a 401. */
function checkSignature(envelope: SnsEnvelope, pem: string): void {
  let verified = false;
  try {
    const certificate = new X509Certificate(pem);
    const verifier = createVerify(SNS_SIGNATURE_ALGORITHMS[envelope.SignatureVersion]);
    verifier.update(snsStringToSign(envelope), 'utf8');
    verified = verifier.verify(certificate.publicKey, envelope.Signature, 'base64');
  } catch {
    throw rejected('The signing certificate cannot be read, so the signature cannot be verified');
  }
  if (!verified) throw rejected('Invalid SNS signature');
}

/** The string SNS signs: the listed keys, in order, each as "Key\nValue\n" (Subject only if set). */
export function snsStringToSign(envelope: SnsEnvelope): string {
  const keys =
    envelope.Type === 'Notification'
      ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  return keys
    .filter((key) => envelope[key as keyof SnsEnvelope] !== undefined)
    .map((key) => `${key}\n${envelope[key as keyof SnsEnvelope]}\n`)
    .join('');
}

const certificates = new Map<string, Promise<string>>();

/**
 * Verifies an SNS message: its certificate comes only from an allowed URL (SNS_URL_PATTERN) and
 * signs the canonical string (SHA1 for version 1, SHA256 for version 2).
 */
export async function verifySnsEnvelope({
  envelope,
  allowedUrls,
  fetchText,
}: {
  envelope: SnsEnvelope;
  allowedUrls: RegExp;
  fetchText: FetchText;
}): Promise<void> {
  if (!allowedUrls.test(envelope.SigningCertURL ?? ''))
    throw rejected('The signing certificate URL is not an SNS URL');
  let pem = certificates.get(envelope.SigningCertURL);
  if (!pem) {
    pem = fetchFromSns(fetchText, envelope.SigningCertURL, 'signing certificate');
    certificates.set(envelope.SigningCertURL, pem);
    pem.catch(() => certificates.delete(envelope.SigningCertURL));
  }
  checkSignature(envelope, await pem);
}

interface SesEvent {
  notificationType?: string;
  eventType?: string;
  mail?: {
    commonHeaders?: { messageId?: string };
    headers?: { name: string; value: string }[];
    destination?: unknown;
  };
  bounce?: { bounceType?: string; bouncedRecipients?: unknown };
  complaint?: { complainedRecipients?: unknown };
  delivery?: { recipients?: unknown };
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

const addressesOf = (value: unknown): string[] =>
  Array.isArray(value)
    ? strings(value.map((r: unknown) => (r as { emailAddress?: unknown } | null)?.emailAddress))
    : [];

/**
 * The recipients an SES notification is about: the bounced or complained ones, or those a
 * delivery reached; when it lists none, the mail's destination.
 */
function recipientsOf(event: SesEvent): string[] {
  const listed = [
    ...addressesOf(event.bounce?.bouncedRecipients),
    ...addressesOf(event.complaint?.complainedRecipients),
    ...strings(event.delivery?.recipients),
  ];
  return listed.length > 0 ? listed : strings(event.mail?.destination);
}

function feedbackOf(event: SesEvent): Feedback | undefined {
  switch (event.notificationType ?? event.eventType) {
    case 'Delivery':
      return { type: 'delivered' };
    case 'Bounce':
      return {
        type: 'bounced',
        bounceType: event.bounce?.bounceType === 'Permanent' ? 'hard' : 'soft',
        evidence: { source: 'ses' },
      };
    case 'Complaint':
      return { type: 'complained' };
    default:
      return undefined;
  }
}

/** A verified SNS message: confirm a subscription, or apply an SES delivery notification. */
export async function handleSnsEnvelope({
  sql,
  snsUrlPattern,
  fetchText,
  envelope,
}: Pick<FeedbackSettings, 'sql' | 'snsUrlPattern' | 'fetchText'> & {
  envelope: SnsEnvelope;
}): Promise<{ action: SnsOutcome }> {
  await verifySnsEnvelope({ envelope, allowedUrls: snsUrlPattern, fetchText });
  if (envelope.Type === 'SubscriptionConfirmation') {
    if (!envelope.SubscribeURL || !snsUrlPattern.test(envelope.SubscribeURL))
      throw rejected('The SubscribeURL is not an SNS URL');
    await fetchFromSns(fetchText, envelope.SubscribeURL, 'subscription confirmation URL');
    return { action: 'confirmed' };
  }
  if (envelope.Type !== 'Notification') return { action: 'ignored' };
  let event: SesEvent;
  try {
    // Verified, but still text from elsewhere: kept cleaned of what PostgreSQL cannot store.
    event = cleanStorableText(JSON.parse(envelope.Message) as SesEvent);
  } catch {
    return { action: 'ignored' };
  }
  const feedback = feedbackOf(event);
  // SES reports our Message-ID header (its own id is different).
  const messageId =
    event.mail?.commonHeaders?.messageId ??
    event.mail?.headers?.find((h) => h.name.toLowerCase() === 'message-id')?.value;
  if (!feedback || !messageId) return { action: 'ignored' };
  const { applied, undetermined } = await applyDeliveryFeedback({
    sql,
    messageId,
    recipients: recipientsOf(event),
    feedback,
  });
  return { action: applied ? 'applied' : undetermined ? 'undetermined' : 'ignored' };
}
