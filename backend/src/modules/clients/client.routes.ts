import Router from '@koa/router';
import { API_ROUTES, clientListQuerySchema, clientSchema } from '@agency/contracts';
import { addRecordRoutes } from '../../admin/record-routes';
import { createClient, deleteClient, getClient, listClients, updateClient } from './client.service';

export function clientRoutes(): Router {
  return addRecordRoutes(new Router(), {
    kind: 'client',
    collection: API_ROUTES.clients,
    item: API_ROUTES.client,
    read: 'clients:read',
    write: 'clients:write',
    listQuerySchema: clientListQuerySchema,
    createSchema: clientSchema,
    updateSchema: clientSchema,
    list: listClients,
    get: getClient,
    create: createClient,
    update: updateClient,
    remove: deleteClient,
    labelOf: (client) => client.companyName,
  });
}
