import Router from '@koa/router';
import { API_ROUTES, contactListQuerySchema, contactStatusSchema } from '@agency/contracts';
import { audit } from '../../middleware/audit';
import { authorize } from '../../middleware/authorize';
import { recordIdParam, validateBody, validateQuery } from '../../middleware/validate';
import {
  deleteContact,
  getContactDetail,
  listContacts,
  setContactStatus,
  type ContactViews,
} from '../contact';
import { createLeadFromContact } from '../leads';
import { contactCsvStream, exportFileName } from './contact-export';

/** The enquiries as staff work them: list, read, status, delete, convert to lead, export. */
export function adminContactRoutes({ views }: { views: ContactViews }): Router {
  const router = new Router();

  router.get(API_ROUTES.contacts, authorize('contacts:read'), async (ctx) => {
    ctx.body = await listContacts(await validateQuery(ctx, contactListQuerySchema), views);
  });

  // Before the one enquiry's route, which would otherwise take "export" for an id.
  router.get(API_ROUTES.contactsExport, authorize('contacts:export'), async (ctx) => {
    const query = await validateQuery(ctx, contactListQuerySchema);
    audit(ctx, 'contact.export', { type: 'contact', label: ctx.querystring || 'all' });
    ctx.set('Content-Type', 'text/csv; charset=utf-8');
    ctx.attachment(exportFileName());
    ctx.body = contactCsvStream(query, views.index, (error) =>
      ctx.state.log.error({ err: error }, 'contacts export stopped'),
    );
  });

  router.get(API_ROUTES.contact, authorize('contacts:read'), async (ctx) => {
    ctx.body = await getContactDetail(recordIdParam(ctx));
  });

  router.patch(API_ROUTES.contact, authorize('contacts:write'), async (ctx) => {
    const id = recordIdParam(ctx);
    const { status } = await validateBody(ctx, contactStatusSchema);
    const { contact, previous } = await setContactStatus(id, status, views.changes);
    audit(
      ctx,
      'contact.status',
      {
        type: 'contact',
        id,
        label: `${contact.firstName} ${contact.lastName}: ${status}`,
      },
      previous === contact.status ? [] : [{ field: 'status', before: previous, after: status }],
    );
    ctx.body = contact;
  });

  router.delete(API_ROUTES.contact, authorize('contacts:write'), async (ctx) => {
    const id = recordIdParam(ctx);
    const contact = await deleteContact(id, views.changes);
    audit(ctx, 'contact.delete', {
      type: 'contact',
      id,
      label: `${contact.firstName} ${contact.lastName}`,
    });
    ctx.status = 204;
  });

  router.post(API_ROUTES.contactConvert, authorize('contacts:write'), async (ctx) => {
    const contact = await getContactDetail(recordIdParam(ctx));
    const lead = await createLeadFromContact(contact);
    audit(ctx, 'contact.convert', { type: 'lead', id: lead.id, label: lead.name });
    ctx.status = 201;
    ctx.body = lead;
  });

  return router;
}
