import Router from '@koa/router';
import {
  API_ROUTES,
  DEFAULT_TEMPLATE_ID,
  campaignTemplateListQuerySchema,
  campaignTemplateSchema,
} from '@agency/contracts';
import { addRecordRoutes } from '../../admin/record-routes';
import { audit } from '../../middleware/audit';
import { sessionUser } from '../../middleware/authenticate';
import { authorize } from '../../middleware/authorize';
import { recordIdParam } from '../../middleware/validate';
import {
  createTemplate,
  deleteTemplate,
  duplicateTemplate,
  getTemplate,
  listTemplates,
  updateTemplate,
} from './campaign-template.service';

/** Campaign templates: the staff who write campaigns manage them. */
export function campaignTemplateRoutes(): Router {
  const router = new Router();

  // `default` names the built-in template, which is duplicated to make one's own.
  router.post(API_ROUTES.campaignTemplateDuplicate, authorize('campaigns:write'), async (ctx) => {
    const raw = (ctx.params as { id?: string }).id;
    const id = raw === DEFAULT_TEMPLATE_ID ? raw : recordIdParam(ctx);
    const template = await duplicateTemplate(id, sessionUser(ctx.state).id);
    audit(ctx, 'template.create', { type: 'template', id: template.id, label: template.name });
    ctx.status = 201;
    ctx.body = template;
  });

  return addRecordRoutes(router, {
    kind: 'template',
    collection: API_ROUTES.campaignTemplates,
    item: API_ROUTES.campaignTemplate,
    read: 'campaigns:read',
    write: 'campaigns:write',
    listQuerySchema: campaignTemplateListQuerySchema,
    createSchema: campaignTemplateSchema,
    updateSchema: campaignTemplateSchema,
    list: listTemplates,
    get: getTemplate,
    create: createTemplate,
    update: updateTemplate,
    remove: deleteTemplate,
    labelOf: (template) => template.name,
  });
}
