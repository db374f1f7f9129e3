// The module's surface without HTTP: what the worker may reach through src/store.ts.
export {
  findContactById,
  findContactIdsAwaitingAcknowledgement,
  findContactIdsAwaitingMail,
  markContactAcknowledgementFailed,
  markContactAcknowledgementSent,
  markContactMailFailed,
  markContactMailSent,
  toContactDto,
} from './contact.service';
export { ContactModel, type Contact, type ContactDocument } from './contact.model';
