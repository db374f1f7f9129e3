import { Schema, model, type Types } from 'mongoose';
import type { SegmentRule } from '@agency/contracts';

/**
 * A saved rule over the people view (contracts' `segmentRuleSchema`,
 * validated before it is written): the builder's count, the campaign count
 * and the send all compile the same stored rule (segment-filter.ts).
 */
const segmentSchema = new Schema(
  {
    name: { type: String, required: true },
    description: { type: String },
    rule: {
      match: { type: String, required: true, enum: ['all', 'any'] },
      // Each condition's value is a text, a list of texts or a number, by its op.
      conditions: { type: [Schema.Types.Mixed], required: true },
    },
    createdBy: { type: Schema.Types.ObjectId },
  },
  { timestamps: true },
);

segmentSchema.index({ name: 1 });
segmentSchema.index({ createdAt: -1 });

export const SegmentModel = model('Segment', segmentSchema);

export interface StoredSegment {
  _id: Types.ObjectId;
  name: string;
  description?: string;
  rule: SegmentRule;
  createdBy?: Types.ObjectId;
  createdAt: Date;
  updatedAt: Date;
}
