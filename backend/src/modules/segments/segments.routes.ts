import Router from '@koa/router';
import {
  API_ROUTES,
  PEOPLE_PERMISSION,
  segmentQuerySchema,
  segmentRuleSchema,
  segmentSchema,
  type SegmentInput,
  type SegmentRule,
} from '@agency/contracts';
import { countSegmentRule, type StalePeople } from '@agency/platform';
import type { ISchema } from 'yup';
import { addRecordRoutes } from '../../admin/record-routes';
import { unaudited } from '../../middleware/audit';
import { authorize } from '../../middleware/authorize';
import { validateBody } from '../../middleware/validate';
import { refreshMarkedPeopleFirst } from '../../middleware/refresh-marked-people';
import {
  createSegment,
  getSegment,
  listSegments,
  removeSegment,
  updateSegment,
} from './segments.service';

/** The schemas' inferred types are looser than the rule's union; they check exactly it. */
const segmentInput = segmentSchema as unknown as ISchema<SegmentInput>;
const segmentRule = segmentRuleSchema as unknown as ISchema<SegmentRule>;

/**
 * Saved rules over the people view: those who see people read, write and
 * count them. The count is declared before `/segments/:id`.
 */
export function segmentRoutes({ stalePeople }: { stalePeople: StalePeople }): Router {
  const router = new Router();

  router.post(
    API_ROUTES.segmentCount,
    authorize(PEOPLE_PERMISSION),
    refreshMarkedPeopleFirst(stalePeople),
    async (ctx) => {
      const rule = await validateBody(ctx, segmentRule);
      // A count changes nothing: the builder asks for one at each edit.
      unaudited(ctx);
      ctx.body = await countSegmentRule(rule);
    },
  );

  return addRecordRoutes(router, {
    kind: 'segment',
    collection: API_ROUTES.segments,
    item: API_ROUTES.segment,
    read: PEOPLE_PERMISSION,
    write: PEOPLE_PERMISSION,
    listQuerySchema: segmentQuerySchema,
    createSchema: segmentInput,
    updateSchema: segmentInput,
    list: listSegments,
    get: getSegment,
    create: createSegment,
    update: updateSegment,
    remove: removeSegment,
    labelOf: (segment) => segment.name,
  });
}
