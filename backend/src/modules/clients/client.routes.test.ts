import { createTestContext, type TestContext } from '../../testing/test-context';
import {
  as,
  signedInUser,
  unknownId,
  validClient,
  type SignedInUser,
  without,
} from '../../testing/admin-fixtures';
import { ClientModel } from './client.model';

let ctx: TestContext;
let editor: SignedInUser;
beforeAll(async () => {
  ctx = await createTestContext();
  editor = await signedInUser(ctx, 'editor');
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  await ClientModel.deleteMany({});
});
const api = () => as(ctx, editor);

describe('clients', () => {
  it('creates, reads, lists, updates and deletes a client', async () => {
    const created = await api().post('/api/admin/clients', validClient);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      ...validClient,
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const id = created.body.id as string;
    expect((await api().get(`/api/admin/clients/${id}`)).body.companyName).toBe(
      'Carthage Bakeries',
    );

    await api().post('/api/admin/clients', {
      ...validClient,
      companyName: 'Djerba Hotels',
      industry: 'hospitality',
      status: 'active',
    });
    const list = await api().get('/api/admin/clients?industry=retail');
    expect(list.body).toMatchObject({ total: 1, items: [{ id }] });
    expect((await api().get('/api/admin/clients?search=djerba')).body.total).toBe(1);

    const withoutOptional = without(validClient, 'monthlyBudget', 'website');
    const updated = await api().put(`/api/admin/clients/${id}`, {
      ...withoutOptional,
      status: 'inactive',
    });
    expect(updated.status).toBe(200);
    expect(updated.body.status).toBe('inactive');
    expect(updated.body).not.toHaveProperty('monthlyBudget');
    expect(updated.body).not.toHaveProperty('website');

    expect((await api().delete(`/api/admin/clients/${id}`)).status).toBe(204);
    expect((await api().get(`/api/admin/clients/${id}`)).status).toBe(404);
    expect((await api().delete(`/api/admin/clients/${id}`)).status).toBe(404);
  });

  it('defaults the status to active and accepts an omitted or null budget', async () => {
    const rest = without(validClient, 'status', 'monthlyBudget');
    const response = await api().post('/api/admin/clients', { ...rest, monthlyBudget: null });
    expect(response.status).toBe(201);
    expect(response.body.status).toBe('active');
    expect(response.body).not.toHaveProperty('monthlyBudget');
  });

  it.each([
    ['companyName', { companyName: ' ' }, 'This field is required'],
    ['contactPerson', { contactPerson: undefined }, 'This field is required'],
    ['email', { email: 'sami at bakery' }, 'Please enter a valid email address'],
    [
      'website',
      { website: 'javascript:alert(1)' },
      'Please enter a valid URL starting with http:// or https://',
    ],
    [
      'website',
      { website: 'carthage' },
      'Please enter a valid URL starting with http:// or https://',
    ],
    ['monthlyBudget', { monthlyBudget: -1 }, 'Must be at least 0'],
    ['monthlyBudget', { monthlyBudget: '100' }, 'Must be a number'],
    ['monthlyBudget', { monthlyBudget: 10.005 }, 'Must be a number'],
    [
      'industry',
      { industry: 'mining' },
      'Must be one of technology, healthcare, finance, retail, manufacturing, education, real-estate, hospitality, other',
    ],
    ['status', { status: 'gone' }, 'Must be one of active, inactive, potential'],
  ])('refuses an invalid %s with its reason and stores nothing', async (field, change, reason) => {
    const response = await api().post('/api/admin/clients', { ...validClient, ...change });
    expect(response.status).toBe(400);
    expect(response.body.error.fields).toEqual({ [field]: reason });
    expect(await ClientModel.countDocuments()).toBe(0);
  });

  it('answers 400 for a malformed id and 404 for an unknown one on every id route', async () => {
    for (const id of ['nope', unknownId()]) {
      const expected = id === 'nope' ? 400 : 404;
      expect((await api().get(`/api/admin/clients/${id}`)).status).toBe(expected);
      expect((await api().put(`/api/admin/clients/${id}`, validClient)).status).toBe(expected);
      expect((await api().delete(`/api/admin/clients/${id}`)).status).toBe(expected);
    }
  });
});
