import Router from '@koa/router';
import { API_ROUTES, testRecipientsSchema, type TestRecipientsDto } from '@agency/contracts';
import { readTestRecipients, saveTestRecipients, type TestRecipientList } from '@agency/platform';
import { audit } from '../../middleware/audit';
import { sessionUser } from '../../middleware/authenticate';
import { authorize } from '../../middleware/authorize';
import { validateBody } from '../../middleware/validate';

function toTestRecipientsDto(list: TestRecipientList): TestRecipientsDto {
  return {
    entries: list.entries,
    updatedAt: list.updatedAt ? list.updatedAt.toISOString() : null,
    updatedBy: list.updatedBy,
  };
}

/**
 * The admin's allow-list of test-send recipients: who besides the staff may
 * receive a campaign's test mail. Admins only, since it decides where mail
 * from the agency's domain may go at a manager's word.
 */
export function testRecipientRoutes(): Router {
  const router = new Router();

  router.get(API_ROUTES.testRecipients, authorize('settings:manage'), async (ctx) => {
    ctx.body = toTestRecipientsDto(await readTestRecipients());
  });

  router.put(API_ROUTES.testRecipients, authorize('settings:manage'), async (ctx) => {
    const { entries } = await validateBody(ctx, testRecipientsSchema);
    const before = await readTestRecipients();
    const saved = await saveTestRecipients(entries, sessionUser(ctx.state).username);
    audit(ctx, 'settings.test-recipients', { type: 'settings', label: 'test-recipients' }, [
      { field: 'entries', before: before.entries, after: saved.entries },
    ]);
    ctx.body = toTestRecipientsDto(saved);
  });

  return router;
}
