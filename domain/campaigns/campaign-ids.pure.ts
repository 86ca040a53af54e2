/** One send per campaign: a retried start finds the run that is there. */
export const campaignSendWorkflowId = (campaignId: string): string => `campaign-${campaignId}`;
