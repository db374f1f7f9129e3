import { createTestContext, type TestContext } from '../../testing/test-context';
import {
  as,
  signedInUser,
  unknownId,
  validLead,
  type SignedInUser,
} from '../../testing/admin-fixtures';
import { LeadModel } from './lead.model';

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
  await LeadModel.deleteMany({});
});
const api = () => as(ctx, editor);

describe('leads', () => {
  it('creates a lead assigned to a user, and never takes the enquiry link from the body', async () => {
    const response = await api().post('/api/admin/leads', {
      ...validLead,
      assigneeId: editor.id,
      contactId: unknownId(),
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      ...validLead,
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      assignee: { id: editor.id, username: editor.username },
      contactId: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('defaults source to manual and status to new, lists, filters, updates and deletes', async () => {
    const created = await api().post('/api/admin/leads', { name: 'Hedi' });
    expect(created.body).toMatchObject({ source: 'manual', status: 'new', assignee: null });
    await api().post('/api/admin/leads', validLead);
    expect((await api().get('/api/admin/leads?status=contacted')).body).toMatchObject({
      total: 1,
      items: [{ name: 'Leila Mansour' }],
    });
    expect((await api().get('/api/admin/leads?search=textiles')).body.total).toBe(1);

    const id = created.body.id as string;
    const updated = await api().put(`/api/admin/leads/${id}`, {
      name: 'Hedi B.',
      status: 'won',
      estimatedValue: 900,
    });
    expect(updated.body).toMatchObject({ name: 'Hedi B.', status: 'won', estimatedValue: 900 });
    expect((await api().get(`/api/admin/leads?assigneeId=${editor.id}`)).body.total).toBe(0);
    expect((await api().delete(`/api/admin/leads/${id}`)).status).toBe(204);
    expect((await api().get(`/api/admin/leads/${id}`)).status).toBe(404);
  });

  it.each([
    ['name', { name: '' }, 'This field is required'],
    ['email', { email: 'x@' }, 'Please enter a valid email address'],
    ['source', { source: 'cold-call' }, 'Must be one of enquiry, manual, referral, other'],
    [
      'status',
      { status: 'maybe' },
      'Must be one of new, contacted, qualified, proposal, won, lost',
    ],
    ['estimatedValue', { estimatedValue: -5 }, 'Must be at least 0'],
    ['assigneeId', { assigneeId: 'someone' }, 'Must be a valid id'],
  ])('refuses an invalid %s with its reason', async (field, change, reason) => {
    const response = await api().post('/api/admin/leads', { ...validLead, ...change });
    expect(response.status).toBe(400);
    expect(response.body.error.fields).toEqual({ [field]: reason });
    expect(await LeadModel.countDocuments()).toBe(0);
  });

  it('refuses an assignee who does not exist', async () => {
    const response = await api().post('/api/admin/leads', {
      ...validLead,
      assigneeId: unknownId(),
    });
    expect(response.status).toBe(400);
    expect(response.body.error.fields).toEqual({ assigneeId: 'No user with this id' });
  });

  it('answers 400 for a malformed id and 404 for an unknown one', async () => {
    for (const [id, expected] of [
      ['1234', 400],
      [unknownId(), 404],
    ] as const) {
      expect((await api().get(`/api/admin/leads/${id}`)).status).toBe(expected);
      expect((await api().put(`/api/admin/leads/${id}`, validLead)).status).toBe(expected);
      expect((await api().delete(`/api/admin/leads/${id}`)).status).toBe(expected);
    }
  });
});
