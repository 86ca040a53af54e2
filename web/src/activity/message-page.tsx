import { PageHeader } from '../components/page-header';

// Placeholder: replaced by the page's real implementation.
export function MessagePage() {
  return <PageHeader title="Message" />;
}
