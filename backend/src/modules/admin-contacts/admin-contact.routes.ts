import Router from '@koa/router';
import { contactListQuerySchema, contactStatusSchema } from '@agency/contracts';
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
  const router = new Router({ prefix: '/api/admin/contacts' });

  router.get('/', authorize('contacts:read'), async (ctx) => {
    ctx.body = await listContacts(await validateQuery(ctx, contactListQuerySchema), views);
  });

  // Before "/:id", which would otherwise take "export" for an id.
  router.get('/export', authorize('contacts:export'), async (ctx) => {
    const query = await validateQuery(ctx, contactListQuerySchema);
    audit(ctx, 'contact.export', { type: 'contact', label: ctx.querystring || 'all' });
    ctx.set('Content-Type', 'text/csv; charset=utf-8');
    ctx.attachment(exportFileName());
    ctx.body = contactCsvStream(query, (error) =>
      ctx.state.log.error({ err: error }, 'contacts export stopped'),
    );
  });

  router.get('/:id', authorize('contacts:read'), async (ctx) => {
    ctx.body = await getContactDetail(recordIdParam(ctx));
  });

  router.patch('/:id', authorize('contacts:write'), async (ctx) => {
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

  router.delete('/:id', authorize('contacts:write'), async (ctx) => {
    const id = recordIdParam(ctx);
    const contact = await deleteContact(id, views.changes);
    audit(ctx, 'contact.delete', {
      type: 'contact',
      id,
      label: `${contact.firstName} ${contact.lastName}`,
    });
    ctx.status = 204;
  });

  router.post('/:id/convert', authorize('contacts:write'), async (ctx) => {
    const contact = await getContactDetail(recordIdParam(ctx));
    const lead = await createLeadFromContact(contact);
    audit(ctx, 'contact.convert', { type: 'lead', id: lead.id, label: lead.name });
    ctx.status = 201;
    ctx.body = lead;
  });

  return router;
}
