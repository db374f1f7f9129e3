import Router from '@koa/router';
import { campaignListQuerySchema, campaignSchema } from '@agency/contracts';
import type { CampaignQueue } from '../../queues/campaign-queue';
import { audit } from '../../middleware/audit';
import { sessionUser } from '../../middleware/authenticate';
import { authorize } from '../../middleware/authorize';
import { recordIdParam, validateBody, validateQuery } from '../../middleware/validate';
import { campaignAudience } from './campaign-audience';
import {
  createCampaign,
  deleteCampaign,
  getCampaign,
  listCampaigns,
  sendCampaign,
  updateCampaign,
} from './campaign.service';

export function campaignRoutes({ campaignQueue }: { campaignQueue: CampaignQueue }): Router {
  const router = new Router({ prefix: '/api/admin/campaigns' });

  router.get('/', authorize('campaigns:read'), async (ctx) => {
    ctx.body = await listCampaigns(await validateQuery(ctx, campaignListQuerySchema));
  });

  router.post('/', authorize('campaigns:write'), async (ctx) => {
    const input = await validateBody(ctx, campaignSchema);
    const campaign = await createCampaign(input, sessionUser(ctx.state).id);
    audit(ctx, 'campaign.create', { type: 'campaign', id: campaign.id, label: campaign.name });
    ctx.status = 201;
    ctx.body = campaign;
  });

  // Before "/:id", which would otherwise take "audience" for an id.
  router.get('/audience', authorize('campaigns:read'), async (ctx) => {
    ctx.body = await campaignAudience();
  });

  router.get('/:id', authorize('campaigns:read'), async (ctx) => {
    ctx.body = await getCampaign(recordIdParam(ctx));
  });

  router.put('/:id', authorize('campaigns:write'), async (ctx) => {
    const id = recordIdParam(ctx);
    const campaign = await updateCampaign(id, await validateBody(ctx, campaignSchema));
    audit(ctx, 'campaign.update', { type: 'campaign', id: campaign.id, label: campaign.name });
    ctx.body = campaign;
  });

  router.delete('/:id', authorize('campaigns:write'), async (ctx) => {
    const campaign = await deleteCampaign(recordIdParam(ctx));
    audit(ctx, 'campaign.delete', { type: 'campaign', id: campaign.id, label: campaign.name });
    ctx.status = 204;
  });

  // Accepted, not done: the worker sends in the background (202).
  router.post('/:id/send', authorize('campaigns:send'), async (ctx) => {
    const campaign = await sendCampaign(campaignQueue, recordIdParam(ctx));
    audit(ctx, 'campaign.send', { type: 'campaign', id: campaign.id, label: campaign.name });
    ctx.status = 202;
    ctx.body = { campaign };
  });

  return router;
}
