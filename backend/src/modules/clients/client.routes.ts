import Router from '@koa/router';
import { clientListQuerySchema, clientSchema } from '@agency/contracts';
import { audit } from '../../middleware/audit';
import { authorize } from '../../middleware/authorize';
import { recordIdParam, validateBody, validateQuery } from '../../middleware/validate';
import { createClient, deleteClient, getClient, listClients, updateClient } from './client.service';

export function clientRoutes(): Router {
  const router = new Router({ prefix: '/api/admin/clients' });

  router.get('/', authorize('clients:read'), async (ctx) => {
    ctx.body = await listClients(await validateQuery(ctx, clientListQuerySchema));
  });

  router.post('/', authorize('clients:write'), async (ctx) => {
    const client = await createClient(await validateBody(ctx, clientSchema));
    audit(ctx, 'client.create', { type: 'client', id: client.id, label: client.companyName });
    ctx.status = 201;
    ctx.body = client;
  });

  router.get('/:id', authorize('clients:read'), async (ctx) => {
    ctx.body = await getClient(recordIdParam(ctx));
  });

  router.put('/:id', authorize('clients:write'), async (ctx) => {
    const id = recordIdParam(ctx);
    const client = await updateClient(id, await validateBody(ctx, clientSchema));
    audit(ctx, 'client.update', { type: 'client', id: client.id, label: client.companyName });
    ctx.body = client;
  });

  router.delete('/:id', authorize('clients:write'), async (ctx) => {
    const client = await deleteClient(recordIdParam(ctx));
    audit(ctx, 'client.delete', { type: 'client', id: client.id, label: client.companyName });
    ctx.status = 204;
  });

  return router;
}
