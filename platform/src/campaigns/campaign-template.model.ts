import { Schema, model, type InferSchemaType } from 'mongoose';

/**
 * A reusable layout for campaigns: a header and a footer written in the
 * editor, brand colours, and the layout's HTML holding `{{content}}`. All
 * HTML is sanitised before it is stored. The built-in default is not stored.
 */
const campaignTemplateSchema = new Schema(
  {
    name: { type: String, required: true },
    header: { type: String, default: '' },
    footer: { type: String, default: '' },
    layout: { type: String, required: true },
    brandColor: { type: String, required: true },
    backgroundColor: { type: String, required: true },
    textColor: { type: String, required: true },
    createdBy: { type: Schema.Types.ObjectId },
    // The media library's images its header, footer and layout show (see campaign.model.ts).
    mediaIds: { type: [String], default: [] },
  },
  { timestamps: true },
);

campaignTemplateSchema.index({ name: 1 });
campaignTemplateSchema.index({ mediaIds: 1 });

export type CampaignTemplate = InferSchemaType<typeof campaignTemplateSchema>;
export const CampaignTemplateModel = model('CampaignTemplate', campaignTemplateSchema);
