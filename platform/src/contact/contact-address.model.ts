import { Schema, model } from 'mongoose';
import { LOCALES } from '@agency/contracts';

/*
 * Each enquiry's address as a campaign mails it, under the enquiry's `_id`:
 * a copy of the fields a campaign reads, kept in step with the contacts
 * (contact-addresses.ts). The campaign audience walks these instead of the
 * enquiries because a store reads a whole document whatever the projection
 * (FerretDB decodes all of it, MongoDB loads it), and an enquiry carries its
 * message and search keys beside them: on the embedded store, reading these
 * costs about half as much (docs/benchmarks.md, bench:mail).
 */
const contactAddressSchema = new Schema(
  {
    _id: { type: Schema.Types.ObjectId, required: true },
    email: { type: String, required: true },
    firstName: { type: String, required: true },
    lastName: { type: String },
    locale: { type: String, required: true, enum: LOCALES },
    // Present (true) only when the enquiry ticked "send me news": the
    // audience reads the consented alone with `{ consented: true }`.
    consented: { type: Boolean },
  },
  { versionKey: false },
);

export const ContactAddressModel = model('ContactAddress', contactAddressSchema);
