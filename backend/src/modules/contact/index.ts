export { contactRoutes, type ContactRoutesDeps } from './contact.routes';
export {
  findContactById,
  findContactIdsAwaitingMail,
  markContactMailFailed,
  markContactMailSent,
  toContactDto,
} from './contact.service';
export { ContactModel, type Contact, type ContactDocument } from './contact.model';
