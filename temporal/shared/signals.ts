/** Hands the email-delivery loop new settings; it continues as new with them. */
export const CONFIGURE_EMAIL_DELIVERY = 'configureEmailDelivery';
