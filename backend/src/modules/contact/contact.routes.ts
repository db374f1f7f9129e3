import Router from '@koa/router';
import { contactSchema, isLocale, type CreateContactResponse } from '@agency/contracts';
import { validateBody, requestLocale } from '../../middleware/validate';
import { rateLimit } from '../../middleware/rate-limit';
import { enqueueContactNotifications, type MailQueues } from '../../queues/mail-queues';
import type { Redis } from '../../queues/redis-connection';
import { storeContact } from './contact.service';

export interface ContactRoutesDeps {
  queues: MailQueues;
  redis: Redis;
  rateLimit: { max: number; windowMs: number; name: string };
}

export function contactRoutes({ queues, redis, rateLimit: limit }: ContactRoutesDeps): Router {
  const router = new Router();

  /**
   * The enquiry is stored first, with its mail owed; only then is the mail
   * enqueued. If Redis is away the visitor still gets 201 and the outbox
   * relay enqueues the mail later.
   */
  router.post('/api/contact', rateLimit({ redis, ...limit }), async (ctx) => {
    const input = await validateBody(ctx, contactSchema);
    const locale = isLocale(input.locale) ? input.locale : requestLocale(ctx);
    const contact = await storeContact(input, locale);
    const id = contact.id as string;
    try {
      await enqueueContactNotifications(queues, [id]);
    } catch (error: unknown) {
      ctx.state.log.warn({ err: error, contactId: id }, 'enqueue failed; outbox relay will retry');
    }
    const body: CreateContactResponse = { id };
    ctx.status = 201;
    ctx.body = body;
  });

  return router;
}
