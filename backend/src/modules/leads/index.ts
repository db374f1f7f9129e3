export { leadRoutes } from './lead.routes';
export { createLeadFromContact } from './lead.service';
export { LeadModel } from './lead.model';
