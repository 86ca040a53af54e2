/** The failure type of a delivery attempt the relay refused for now (4xx) or never answered. */
export const MAIL_DELIVERY_FAILURE = 'MailDeliveryError';

/** What such a failure carries to its workflow: the relay's reply code, when it gave one. */
export interface MailDeliveryFailureDetails {
  responseCode?: number;
}
