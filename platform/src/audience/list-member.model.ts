import { Schema, model, type InferSchemaType } from 'mongoose';
import { LOCALES, DEFAULT_LOCALE, LIST_MEMBER_CONSENT_BASES } from '@agency/contracts';

/**
 * Why a person is in a list, and who put them there: an import records the
 * file, who ran it and when; staff adding one address record themselves; a
 * person joining a public list by their own sign-up records when they did.
 */
const consentSchema = new Schema(
  {
    basis: { type: String, required: true, enum: LIST_MEMBER_CONSENT_BASES },
    byId: { type: Schema.Types.ObjectId },
    byName: { type: String },
    at: { type: Date, required: true },
    file: { type: String },
    listName: { type: String, required: true },
  },
  { _id: false },
);

/**
 * One person in one list. The `_id` is `<list>:<normalised address>`, so a
 * person is in a list once however the address is typed, an import writes
 * with inserts alone (one document per row, the cheap write on the embedded
 * store), and a row already there is found by `_id`.
 */
const listMemberSchema = new Schema(
  {
    _id: { type: String, required: true },
    list: { type: Schema.Types.ObjectId, required: true },
    key: { type: String, required: true },
    email: { type: String, required: true },
    firstName: { type: String, default: '' },
    lastName: { type: String, default: '' },
    locale: { type: String, enum: LOCALES, default: DEFAULT_LOCALE },
    tags: { type: [String], default: [] },
    // The import that created it: a run taken over after a crash knows its own rows.
    importId: { type: Schema.Types.ObjectId },
    consent: { type: consentSchema, required: true },
  },
  { timestamps: true },
);

listMemberSchema.index({ list: 1 });
listMemberSchema.index({ key: 1 });

export type ListMember = InferSchemaType<typeof listMemberSchema>;
export const ListMemberModel = model('ListMember', listMemberSchema);

export function listMemberId(listId: string, key: string): string {
  return `${listId}:${key}`;
}
