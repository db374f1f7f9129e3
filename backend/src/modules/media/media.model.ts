import { Schema, model, type InferSchemaType } from 'mongoose';

/**
 * One image of the library: what the API made of an upload. `hash` is the
 * upload's SHA-256 (the id the API and the file names use); `_id` stays an
 * ObjectId so keyset pages work as on every other list.
 */
const mediaSchema = new Schema(
  {
    hash: { type: String, required: true },
    name: { type: String, required: true },
    // The name's words as searched (lower-case, without accents): a search
    // matches the start of any of them through the index.
    nameWords: { type: [String], default: [] },
    contentType: { type: String, required: true },
    extension: { type: String, required: true },
    width: { type: Number, required: true },
    height: { type: Number, required: true },
    size: { type: Number, required: true },
    originalWidth: { type: Number, required: true },
    originalHeight: { type: Number, required: true },
    createdBy: {
      type: new Schema(
        { id: { type: Schema.Types.ObjectId }, username: { type: String } },
        { _id: false },
      ),
      default: null,
    },
  },
  { timestamps: true, collection: 'media' },
);

mediaSchema.index({ hash: 1 }, { unique: true });
mediaSchema.index({ createdAt: -1, _id: -1 });
mediaSchema.index({ name: 1, _id: 1 });
mediaSchema.index({ nameWords: 1 });

export type Media = InferSchemaType<typeof mediaSchema>;
export type StoredMedia = Media & { _id: unknown; createdAt: Date; updatedAt: Date };
export const MediaModel = model('Media', mediaSchema);
