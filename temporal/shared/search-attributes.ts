import { defineSearchAttributeKey } from '@temporalio/common';

/** Lets operators filter runs by project in the Temporal UI (`ProjectId = "..."`). */
export const PROJECT_ID = defineSearchAttributeKey('ProjectId', 'KEYWORD');
