import request from 'supertest';
import { QUEUE_NAMES } from '@agency/contracts';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { as, signedInUser, type SignedInUser } from '../../testing/admin-fixtures';

let ctx: TestContext;
let admin: SignedInUser;
let manager: SignedInUser;

beforeAll(async () => {
  ctx = await createTestContext();
  [admin, manager] = await Promise.all([signedInUser(ctx, 'admin'), signedInUser(ctx, 'manager')]);
});
afterAll(async () => {
  await ctx.close();
});

describe('the queue board (bull-board)', () => {
  it('shows every queue to an admin', async () => {
    const response = await as(ctx, admin).get('/api/admin/queues/api/queues');
    expect(response.status).toBe(200);
    const names = (response.body.queues as { name: string }[]).map((queue) => queue.name);
    expect(names).toEqual(
      expect.arrayContaining(['contact-mail', 'campaign-dispatch', QUEUE_NAMES.campaignSend]),
    );
  });

  it('refuses anyone else: 401 without a session, 403 for a manager', async () => {
    expect((await as(ctx, null).get('/api/admin/queues')).status).toBe(401);
    expect((await as(ctx, null).get('/api/admin/queues/api/queues')).status).toBe(401);
    expect((await as(ctx, manager).get('/api/admin/queues/api/queues')).status).toBe(403);
    expect((await as(ctx, manager).post('/api/admin/queues/session')).status).toBe(403);
  });

  it('opens in a browser tab through a path-scoped HttpOnly cookie given for the bearer token', async () => {
    const session = await as(ctx, admin).post('/api/admin/queues/session');
    expect(session.status).toBe(204);
    const cookie = session.headers['set-cookie']?.[0] ?? '';
    expect(cookie).toMatch(/^queue_board_session=/);
    expect(cookie).toContain('path=/api/admin/queues');
    expect(cookie).toContain('httponly');
    expect(cookie).toContain('samesite=strict');
    const page = await request(ctx.app.callback())
      .get('/api/admin/queues')
      .set('Cookie', cookie.split(';')[0] ?? '');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    // The cookie alone cannot mint another one.
    const again = await request(ctx.app.callback())
      .post('/api/admin/queues/session')
      .set('Cookie', cookie.split(';')[0] ?? '');
    expect(again.status).toBe(401);
    // Nor does it open the rest of the admin API.
    const contacts = await request(ctx.app.callback())
      .get('/api/admin/contacts')
      .set('Cookie', cookie.split(';')[0] ?? '');
    expect(contacts.status).toBe(401);
  });
});

describe('queue depths in /api/health', () => {
  it('counts waiting jobs per queue', async () => {
    await ctx.campaignQueue.testSend.add(QUEUE_NAMES.campaignTestSend, {
      campaignId: 'x',
      email: 'a@b.tn',
    });
    const response = await request(ctx.app.callback()).get('/api/health');
    expect(response.status).toBe(200);
    expect(response.body.queues[QUEUE_NAMES.campaignTestSend]).toEqual({
      waiting: 1,
      active: 0,
      delayed: 0,
      failed: 0,
    });
    expect(response.body.queues['contact-mail']).toEqual({
      waiting: 0,
      active: 0,
      delayed: 0,
      failed: 0,
    });
  });
});
