import Router from '@koa/router';
import { API_ROUTES, contactSchema, isLocale, type CreateContactResponse } from '@agency/contracts';
import { validateBody, requestLocale } from '../../middleware/validate';
import { rateLimit } from '../../middleware/rate-limit';
import {
  enqueueContactMails,
  storeContact,
  type ContactChanges,
  type MailQueues,
  type Redis,
} from '@agency/platform';

export interface ContactRoutesDeps {
  queues: MailQueues;
  /** The kept figures and list index, told of each enquiry stored. */
  changes: ContactChanges;
  redis: Redis;
  rateLimit: { max: number; windowMs: number; name: string };
}

export function contactRoutes({
  queues,
  changes,
  redis,
  rateLimit: limit,
}: ContactRoutesDeps): Router {
  const router = new Router();

  /**
   * The enquiry is stored first, with both its mails owed (the agency's
   * notification and the visitor's acknowledgement); only then are they
   * enqueued. If Redis is away or frozen the visitor still gets 201 within
   * the command timeout, and the worker's outbox relay enqueues them later.
   * The job carries what the mails are written from, so the worker's first
   * run sends them without a read of the store, which every insert here
   * waits on.
   */
  router.post(API_ROUTES.contactForm, rateLimit({ redis, ...limit }), async (ctx) => {
    const input = await validateBody(ctx, contactSchema);
    const locale = isLocale(input.locale) ? input.locale : requestLocale(ctx);
    // The address the request came from is kept only with a consent, as its proof.
    const { id, mail } = await storeContact(input, locale, changes, { ip: ctx.ip });
    try {
      await enqueueContactMails(queues, [{ contactId: id, mail }]);
    } catch (error: unknown) {
      ctx.state.log.warn(
        { err: error, contactId: id },
        'enqueue failed; the outbox relay will enqueue it',
      );
    }
    const body: CreateContactResponse = { id };
    ctx.status = 201;
    ctx.body = body;
  });

  return router;
}
