import { Link, useParams } from '@tanstack/react-router';
import { ErrorState, Loading } from '../components/states';
import { CampaignComposer } from './campaign-composer';
import { useCampaign, useVerifiedDomains } from './campaign-queries';

export function BackToCampaigns() {
  return (
    <p className="mb-2 text-sm">
      <Link to="/campaigns" className="text-accent underline">
        ← Campaigns
      </Link>
    </p>
  );
}

export function CampaignPage() {
  const { campaignId } = useParams({ from: '/app/campaigns/$campaignId' });
  const campaign = useCampaign(campaignId);
  const domains = useVerifiedDomains();
  if (campaign.isPending || domains.isPending) return <Loading label="Loading the campaign" />;
  if (campaign.isError) return <ErrorState error={campaign.error} />;
  if (domains.isError) return <ErrorState error={domains.error} />;
  return (
    <>
      <BackToCampaigns />
      {/* Keyed by status: a sent campaign starts again as the read-only composer. */}
      <CampaignComposer
        key={`${campaign.data.id}:${campaign.data.status}`}
        campaign={campaign.data}
        domains={domains.data}
      />
    </>
  );
}

export function NewCampaignPage() {
  const domains = useVerifiedDomains();
  if (domains.isPending) return <Loading label="Loading your domains" />;
  if (domains.isError) return <ErrorState error={domains.error} />;
  return (
    <>
      <BackToCampaigns />
      <CampaignComposer domains={domains.data} />
    </>
  );
}
