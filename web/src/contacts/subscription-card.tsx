import type { ResponseOf } from '../api/types';
import { Button } from '../components/button';
import { Card } from '../components/card';
import { formatDate } from '../lib/format';
import { SubscriptionBadge } from './subscription-badge';

type Contact = ResponseOf<'/contacts/{id}', 'get'>;

/** What the state means for the mail the contact gets, and when it asked or confirmed. */
function explanation(c: Contact): string {
  switch (c.subscriptionState) {
    case 'subscribed':
      return c.optIn.confirmedAt
        ? `Subscribed to marketing email; confirmed by email on ${formatDate(c.optIn.confirmedAt)}.`
        : 'Subscribed to marketing email.';
    case 'pending':
      return `Asked to subscribe on ${formatDate(c.optIn.requestedAt)} and was sent a confirmation email. Until its link is clicked, this contact gets no campaign or workflow email.`;
    case 'unsubscribed':
      return 'Unsubscribed: receives transactional email only.';
  }
}

const ACTION_LABELS: Record<Contact['subscriptionState'], string> = {
  subscribed: 'Unsubscribe',
  pending: 'Subscribe without confirmation',
  unsubscribed: 'Subscribe',
};

/** The contact's subscription state, and the button that changes it. */
export function SubscriptionCard({
  contact,
  saving,
  onChange,
}: {
  contact: Contact;
  saving: boolean;
  onChange: (subscribed: boolean) => void;
}) {
  return (
    <Card title="Subscription" actions={<SubscriptionBadge state={contact.subscriptionState} />}>
      <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
        <p className="max-w-prose">{explanation(contact)}</p>
        <Button variant="secondary" busy={saving} onClick={() => onChange(!contact.subscribed)}>
          {ACTION_LABELS[contact.subscriptionState]}
        </Button>
      </div>
    </Card>
  );
}
