import { Schema, model, type InferSchemaType } from 'mongoose';
import { ACTIVITY_ACTIONS } from '@agency/contracts';

/**
 * The audit trail: appended to, never changed. Names are copied into the
 * entry so it still reads right after a user or record is deleted.
 */
const activityLogSchema = new Schema({
  actor: {
    type: new Schema({ id: { type: String, required: true }, username: String }, { _id: false }),
    default: null,
  },
  action: { type: String, required: true, enum: ACTIVITY_ACTIONS },
  target: {
    type: new Schema({ type: String, id: String, label: String }, { _id: false }),
    default: null,
  },
  time: { type: Date, required: true, default: () => new Date() },
  ip: { type: String, required: true },
  changes: {
    type: [
      new Schema(
        {
          field: { type: String, required: true },
          before: { type: Schema.Types.Mixed },
          after: { type: Schema.Types.Mixed },
          redacted: { type: Boolean },
        },
        { _id: false, minimize: false },
      ),
    ],
    default: undefined,
  },
});

activityLogSchema.index({ time: -1 });
activityLogSchema.index({ 'actor.id': 1, time: -1 });
// The log's pages filtered by what was done, newest first.
activityLogSchema.index({ action: 1, time: -1 });

export type ActivityLog = InferSchemaType<typeof activityLogSchema>;
export const ActivityLogModel = model('ActivityLog', activityLogSchema, 'activitylogs');
