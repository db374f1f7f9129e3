import type { CampaignSendState } from '@agency/platform';

/** A first-round campaign's state as a batch reads it while it sends, with `overrides`. */
export const sendingStateOf = (
  id: string,
  overrides: Partial<CampaignSendState> = {},
): CampaignSendState => ({
  id,
  status: 'sending',
  recipientType: 'all',
  listIds: [],
  segmentIds: [],
  enquiryLawfulBasis: null,
  round: 1,
  pass: 1,
  roundBaseSent: 0,
  countersVersion: 0,
  dispatchedRound: 1,
  queuedAt: null,
  updatedAt: new Date(),
  sendingWindow: null,
  ratePerMinute: null,
  ...overrides,
});
