import { PageHeader } from '../components/page-header';

// Placeholder: replaced by the page's real implementation.
export function AnalyticsPage() {
  return <PageHeader title="Analytics" />;
}
