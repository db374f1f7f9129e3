import type { Types, mongo } from 'mongoose';
import type { CampaignRecipient } from '@agency/contracts';
import { CampaignBatchModel, CampaignOutcomeModel } from './campaign-batch.model';

/** A batch's roster as the dispatch writes it. */
export interface RosterDocument {
  _id: string;
  campaign: Types.ObjectId;
  round: number;
  seq: number;
  recipients: CampaignRecipient[];
  createdAt: Date;
  /** 'keyed' since identities carry keyed digests; absent on older rounds. */
  identity?: string;
}

export interface OutcomeLine {
  position: number;
  email: string;
  state: 'sent' | 'failed';
  reason?: string;
  attempts: number;
  at: Date;
}

/** A batch's outcomes as its sends write them, under the batch's `_id`. */
export interface OutcomeDocument {
  _id: string;
  campaign: Types.ObjectId;
  round: number;
  seq: number;
  outcomes: OutcomeLine[];
}

/** The ledger's collections as the driver sees them: written once or more per batch, nothing to cast. */
export const rosters = () =>
  CampaignBatchModel.collection as unknown as mongo.Collection<RosterDocument>;
export const outcomeDocuments = () =>
  CampaignOutcomeModel.collection as unknown as mongo.Collection<OutcomeDocument>;
