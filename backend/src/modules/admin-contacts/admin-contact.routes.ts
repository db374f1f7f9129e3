import Router from '@koa/router';
import { API_ROUTES, contactListQuerySchema, contactStatusSchema } from '@agency/contracts';
import { audit } from '../../middleware/audit';
import { authorize } from '../../middleware/authorize';
import { recordIdParam, validateBody, validateQuery } from '../../middleware/validate';
import { getContactDetail, listContacts, setContactStatus } from '../contact';
import { createLeadFromContact } from '../leads';
import { contactCsvStream, exportFileName } from './contact-export';

/** The enquiries as staff work them: list, read, status, convert to lead, export. */
export function adminContactRoutes(): Router {
  const router = new Router();

  router.get(API_ROUTES.contacts, authorize('contacts:read'), async (ctx) => {
    ctx.body = await listContacts(await validateQuery(ctx, contactListQuerySchema));
  });

  // Before the one enquiry's route, which would otherwise take "export" for an id.
  router.get(API_ROUTES.contactsExport, authorize('contacts:export'), async (ctx) => {
    const query = await validateQuery(ctx, contactListQuerySchema);
    audit(ctx, 'contact.export', { type: 'contact', label: ctx.querystring || 'all' });
    ctx.set('Content-Type', 'text/csv; charset=utf-8');
    ctx.attachment(exportFileName());
    ctx.body = contactCsvStream(query, (error) =>
      ctx.state.log.error({ err: error }, 'contacts export stopped'),
    );
  });

  router.get(API_ROUTES.contact, authorize('contacts:read'), async (ctx) => {
    ctx.body = await getContactDetail(recordIdParam(ctx));
  });

  router.patch(API_ROUTES.contact, authorize('contacts:write'), async (ctx) => {
    const id = recordIdParam(ctx);
    const { status } = await validateBody(ctx, contactStatusSchema);
    const before = await getContactDetail(id);
    const contact = await setContactStatus(id, status);
    const changes =
      before.status === contact.status
        ? []
        : [{ field: 'status', before: before.status, after: contact.status }];
    audit(
      ctx,
      'contact.status',
      {
        type: 'contact',
        id,
        label: `${contact.firstName} ${contact.lastName}: ${status}`,
      },
      changes,
    );
    ctx.body = contact;
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
