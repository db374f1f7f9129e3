import Router from '@koa/router';
import { API_ROUTES, leadListQuerySchema, leadSchema } from '@agency/contracts';
import { addRecordRoutes } from '../../admin/record-routes';
import { createLead, deleteLead, getLead, listLeads, updateLead } from './lead.service';

export function leadRoutes(): Router {
  return addRecordRoutes(new Router(), {
    kind: 'lead',
    collection: API_ROUTES.leads,
    item: API_ROUTES.lead,
    read: 'leads:read',
    write: 'leads:write',
    listQuerySchema: leadListQuerySchema,
    createSchema: leadSchema,
    updateSchema: leadSchema,
    list: listLeads,
    get: getLead,
    create: createLead,
    update: updateLead,
    remove: deleteLead,
    labelOf: (lead) => lead.name,
  });
}
