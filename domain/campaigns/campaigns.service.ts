// The campaign use cases (a file per group of them), as the routes and the app's wiring use them.
export type { CampaignDeps } from './campaign-rules.js';
export type { CampaignInput } from './campaign-input.js';
export { toCampaignView, type CampaignView } from './campaign-view.js';
export {
  createCampaign,
  deleteCampaign,
  duplicateCampaign,
  replaceCampaign,
} from './edit-campaign.js';
export {
  getCampaign,
  getCampaignStats,
  listCampaigns,
  type CampaignStats,
} from './read-campaigns.js';
export { cancelCampaign, sendCampaign, sendTestEmail } from './send-campaign.js';
export { measureAudience } from './measure-audience.js';
