import request from 'supertest';
import { createTestContext, type TestContext } from '../testing/test-context';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { CORS_ORIGIN: 'https://www.agency.tn' } });
});
afterAll(async () => {
  await ctx.close();
});

describe('security headers and CORS', () => {
  it('sends the security headers of a JSON API on every answer', async () => {
    for (const path of ['/api/health', '/api/admin/me', '/api/nothing']) {
      const response = await request(ctx.app.callback()).get(path);
      expect(response.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'referrer-policy': 'no-referrer',
        'strict-transport-security': expect.stringMatching(/^max-age=\d+/),
        'content-security-policy': expect.stringContaining("default-src 'none'"),
      });
      expect(response.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('allows the configured origin only, with credentials', async () => {
    const allowed = await request(ctx.app.callback())
      .options('/api/admin/login')
      .set('Origin', 'https://www.agency.tn')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type,authorization');
    expect(allowed.status).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://www.agency.tn');
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');

    const other = await request(ctx.app.callback())
      .get('/api/health')
      .set('Origin', 'https://evil.test');
    // The browser compares this with its own origin and refuses the answer.
    expect(other.headers['access-control-allow-origin']).toBe('https://www.agency.tn');
  });

  it('never lets a browser or proxy cache an admin answer', async () => {
    const response = await request(ctx.app.callback())
      .post('/api/admin/login')
      .send({ username: 'x', password: 'y' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('refuses an admin call without a token before reading its body', async () => {
    const response = await request(ctx.app.callback())
      .post('/api/admin/clients')
      .set('Content-Type', 'application/json')
      .send('{"this is": not even json');
    expect(response.status).toBe(401);
  });
});
