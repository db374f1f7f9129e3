import Router from '@koa/router';
import {
  API_ROUTES,
  campaignPeopleExportQuerySchema,
  campaignPeopleQuerySchema,
} from '@agency/contracts';
import { campaignPeopleRows, readCampaignPeoplePage, readCampaignReport } from '@agency/platform';
import { audit } from '../../middleware/audit';
import { authorize } from '../../middleware/authorize';
import { recordIdParam, validateQuery } from '../../middleware/validate';
import {
  campaignPeopleCsvStream,
  campaignReportCsv,
  reportFileName,
} from './campaign-report-export';

/**
 * A campaign's results: the report and its CSV for whoever reads campaigns;
 * who opened and clicked what (individual mode only, else 409) for those
 * with `campaigns:individual-results`. Reads only; the individual results'
 * export is written in the activity log, as the contacts export is.
 */
export function campaignReportRoutes(): Router {
  const router = new Router();

  router.get(API_ROUTES.campaignReport, authorize('campaigns:read'), async (ctx) => {
    ctx.body = await readCampaignReport(recordIdParam(ctx));
  });

  router.get(API_ROUTES.campaignReportExport, authorize('campaigns:read'), async (ctx) => {
    const report = await readCampaignReport(recordIdParam(ctx));
    ctx.set('Content-Type', 'text/csv; charset=utf-8');
    ctx.attachment(reportFileName(report.name, 'report'));
    ctx.body = campaignReportCsv(report);
  });

  router.get(
    API_ROUTES.campaignReportPeople,
    authorize('campaigns:individual-results'),
    async (ctx) => {
      const id = recordIdParam(ctx);
      const query = await validateQuery(ctx, campaignPeopleQuerySchema);
      ctx.body = await readCampaignPeoplePage(id, query);
    },
  );

  router.get(
    API_ROUTES.campaignReportPeopleExport,
    authorize('campaigns:individual-results'),
    async (ctx) => {
      const id = recordIdParam(ctx);
      const query = await validateQuery(ctx, campaignPeopleExportQuerySchema);
      // Refuses (404, 409) before the first byte: the rows come after the campaign is checked.
      const rows = await campaignPeopleRows(id, query);
      // Who opened and clicked what is personal data: its export is in the activity log.
      audit(ctx, 'campaign.results-export', {
        type: 'campaign',
        id,
        label: ctx.querystring || 'all',
      });
      ctx.set('Content-Type', 'text/csv; charset=utf-8');
      ctx.attachment(reportFileName(id, 'people'));
      ctx.body = campaignPeopleCsvStream(rows, (error) =>
        ctx.state.log.error({ err: error }, 'campaign people export stopped'),
      );
    },
  );

  return router;
}
