import { Schema, model, type InferSchemaType } from 'mongoose';
import { MAIL_EVENT_KINDS } from '@agency/contracts';

/**
 * A bounce or complaint as a provider (or a returned mail) reported it,
 * appended once: its `_id` is `<provider>:<the provider's event id>`, so a
 * replayed delivery of the same event is refused by the index and changes
 * nothing.
 */
const mailEventSchema = new Schema(
  {
    _id: { type: String, required: true },
    provider: { type: String, required: true },
    kind: { type: String, required: true, enum: MAIL_EVENT_KINDS },
    key: { type: String, required: true },
    email: { type: String, required: true },
    // The campaign mail it answers, when its Message-ID or return path says so.
    campaign: { type: Schema.Types.ObjectId },
    round: { type: Number },
    detail: { type: String },
    at: { type: Date, required: true },
  },
  { timestamps: true },
);

mailEventSchema.index({ campaign: 1 });
mailEventSchema.index({ key: 1 });

export type MailEvent = InferSchemaType<typeof mailEventSchema>;
export const MailEventModel = model('MailEvent', mailEventSchema);
