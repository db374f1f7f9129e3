import Router from '@koa/router';
import { leadListQuerySchema, leadSchema } from '@agency/contracts';
import { audit } from '../../middleware/audit';
import { authorize } from '../../middleware/authorize';
import { recordIdParam, validateBody, validateQuery } from '../../middleware/validate';
import { createLead, deleteLead, getLead, listLeads, updateLead } from './lead.service';

export function leadRoutes(): Router {
  const router = new Router({ prefix: '/api/admin/leads' });

  router.get('/', authorize('leads:read'), async (ctx) => {
    ctx.body = await listLeads(await validateQuery(ctx, leadListQuerySchema));
  });

  router.post('/', authorize('leads:write'), async (ctx) => {
    const lead = await createLead(await validateBody(ctx, leadSchema));
    audit(ctx, 'lead.create', { type: 'lead', id: lead.id, label: lead.name });
    ctx.status = 201;
    ctx.body = lead;
  });

  router.get('/:id', authorize('leads:read'), async (ctx) => {
    ctx.body = await getLead(recordIdParam(ctx));
  });

  router.put('/:id', authorize('leads:write'), async (ctx) => {
    const id = recordIdParam(ctx);
    const lead = await updateLead(id, await validateBody(ctx, leadSchema));
    audit(ctx, 'lead.update', { type: 'lead', id: lead.id, label: lead.name });
    ctx.body = lead;
  });

  router.delete('/:id', authorize('leads:write'), async (ctx) => {
    const lead = await deleteLead(recordIdParam(ctx));
    audit(ctx, 'lead.delete', { type: 'lead', id: lead.id, label: lead.name });
    ctx.status = 204;
  });

  return router;
}
