import { trusted } from 'mongoose';
import { createTestContext, type TestContext } from '../../testing/test-context';
import {
  as,
  signedInUser,
  unknownId,
  without,
  type SignedInUser,
} from '../../testing/admin-fixtures';
import { UserModel } from '@agency/platform/testing/users-models';
import { verifyPassword } from './password';

let ctx: TestContext;
let admin: SignedInUser;
beforeAll(async () => {
  ctx = await createTestContext();
  await UserModel.init();
  admin = await signedInUser(ctx, 'admin');
});
afterAll(async () => {
  await ctx.close();
});
const api = () => as(ctx, admin);
const newUser = (name: string, role = 'viewer') => ({
  username: name,
  email: `${name}@agency.tn`,
  role,
  password: 'a long enough password',
});

describe('POST /api/admin/users', () => {
  it('creates a user with an argon2id hash and answers a DTO without it', async () => {
    const response = await api().post('/api/admin/users', { ...newUser('Karim'), tokenVersion: 9 });

    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      username: 'karim',
      email: 'karim@agency.tn',
      role: 'viewer',
      twoFactorEnabled: false,
      lastLoginAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const stored = await UserModel.findById(response.body.id).lean();
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(stored?.tokenVersion).toBe(0);
    expect(await verifyPassword(stored?.passwordHash ?? '', 'a long enough password')).toBe(true);
  });

  it('defaults the role to viewer', async () => {
    const withoutRole = without(newUser('defaulted'), 'role');
    const response = await api().post('/api/admin/users', withoutRole);
    expect(response.status).toBe(201);
    expect(response.body.role).toBe('viewer');
  });

  it('answers 409 naming the field when the username or e-mail is taken, in any case', async () => {
    await api().post('/api/admin/users', newUser('taken'));
    const sameName = await api().post('/api/admin/users', {
      ...newUser('TAKEN'),
      email: 'x@agency.tn',
    });
    const sameEmail = await api().post('/api/admin/users', {
      ...newUser('other'),
      email: 'Taken@Agency.tn',
    });

    expect(sameName.status).toBe(409);
    expect(sameName.body.error).toMatchObject({
      code: 'CONFLICT',
      fields: { username: 'This username is taken' },
    });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body.error.fields).toEqual({ email: 'This e-mail is already used' });
    expect(await UserModel.countDocuments({ username: 'other' })).toBe(0);
  });

  it.each([
    ['username', { username: '' }, 'Username is required'],
    [
      'username',
      { username: 'has space' },
      'Use letters, digits, dots, dashes or underscores only',
    ],
    ['email', { email: 'nope' }, 'Please enter a valid email address'],
    ['role', { role: 'owner' }, 'Must be one of admin, manager, editor, viewer'],
    ['password', { password: 'short' }, 'Must be at least 12 characters long'],
    ['password', { password: undefined }, 'Password is required'],
    ['password', { password: 'x'.repeat(129) }, 'Must be at most 128 characters long'],
  ])('refuses an invalid %s with its reason', async (field, change, reason) => {
    const before = await UserModel.countDocuments();
    const response = await api().post('/api/admin/users', { ...newUser('invalid'), ...change });
    expect(response.status).toBe(400);
    expect(response.body.error.fields).toEqual({ [field]: reason });
    expect(await UserModel.countDocuments()).toBe(before);
  });
});

describe('GET /api/admin/users', () => {
  beforeAll(async () => {
    for (const [name, role] of [
      ['zeineb', 'editor'],
      ['yassine', 'editor'],
      ['walid', 'manager'],
    ] as const) {
      await api().post('/api/admin/users', newUser(name, role));
    }
  });

  it('pages, filters by role and searches username and e-mail', async () => {
    const editors = await api().get('/api/admin/users?role=editor&sort=-username');
    expect(editors.status).toBe(200);
    expect(editors.body.items.map((user: { username: string }) => user.username)).toEqual([
      'zeineb',
      'yassine',
    ]);
    expect(editors.body).toMatchObject({ total: 2, page: 1, pageSize: 20 });

    const search = await api().get('/api/admin/users?search=WALID@agency');
    expect(search.body.items.map((user: { username: string }) => user.username)).toEqual(['walid']);

    const page = await api().get('/api/admin/users?pageSize=1&page=2&sort=username');
    expect(page.body.items).toHaveLength(1);
    expect(page.body.total).toBeGreaterThanOrEqual(4);
    expect(JSON.stringify(page.body)).not.toContain('passwordHash');
  });

  it('caps the page size and refuses unknown sorts and roles', async () => {
    const response = await api().get('/api/admin/users?pageSize=1000&sort=passwordHash&role=god');
    expect(response.status).toBe(400);
    expect(response.body.error.fields).toEqual({
      pageSize: 'Must be at most 100',
      sort: expect.stringMatching(/^Must be one of username, -username/),
      role: 'Must be one of admin, manager, editor, viewer',
    });
  });

  it('treats a search as text, not as a pattern', async () => {
    const response = await api().get(`/api/admin/users?search=${encodeURIComponent('.*')}`);
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(0);
  });
});

describe('PUT and DELETE /api/admin/users/:id', () => {
  it('changes fields, keeps the password when none is given, and changes it when given', async () => {
    const created = await api().post('/api/admin/users', newUser('edited'));
    const id = created.body.id as string;
    const kept = await api().put(`/api/admin/users/${id}`, {
      username: 'edited2',
      email: 'e2@agency.tn',
      role: 'manager',
      password: '',
    });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({
      username: 'edited2',
      email: 'e2@agency.tn',
      role: 'manager',
    });
    let stored = await UserModel.findById(id).lean();
    expect(await verifyPassword(stored?.passwordHash ?? '', 'a long enough password')).toBe(true);

    await api().put(`/api/admin/users/${id}`, {
      username: 'edited2',
      email: 'e2@agency.tn',
      role: 'manager',
      password: 'another long password',
    });
    stored = await UserModel.findById(id).lean();
    expect(await verifyPassword(stored?.passwordHash ?? '', 'another long password')).toBe(true);
    // Once for the new role, once for the new password.
    expect(stored?.tokenVersion).toBe(2);
  });

  it('answers 409 on a taken name, 400 on a malformed id and 404 on an unknown one', async () => {
    const a = await api().post('/api/admin/users', newUser('first-of-two'));
    await api().post('/api/admin/users', newUser('second-of-two'));
    const taken = await api().put(`/api/admin/users/${a.body.id}`, {
      ...newUser('second-of-two'),
      email: 'fresh@agency.tn',
      password: undefined,
    });
    expect(taken.status).toBe(409);

    expect((await api().put('/api/admin/users/not-an-id', newUser('x'))).status).toBe(400);
    const malformed = await api().delete('/api/admin/users/123');
    expect(malformed.body.error).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Some fields are invalid',
      fields: { id: 'Must be a valid id' },
    });
    expect((await api().get(`/api/admin/users/${unknownId()}`)).status).toBe(404);
    expect((await api().put(`/api/admin/users/${unknownId()}`, newUser('ghost'))).status).toBe(404);
    expect((await api().delete(`/api/admin/users/${unknownId()}`)).status).toBe(404);
  });

  it('lets nobody delete themself', async () => {
    const response = await api().delete(`/api/admin/users/${admin.id}`);
    expect(response.status).toBe(409);
    expect(response.body.error.message).toBe('You cannot delete your own account');
    expect(await UserModel.exists({ _id: admin.id })).toBeTruthy();
  });

  it('never demotes or deletes the last admin', async () => {
    const solo = await createTestContextWithOneAdmin();
    try {
      const self = await solo.api().put(`/api/admin/users/${solo.admin.id}`, {
        username: solo.admin.username,
        email: `${solo.admin.username}@agency.test`,
        role: 'viewer',
      });
      expect(self.status).toBe(409);
      expect(self.body.error.fields).toEqual({ role: 'At least one admin must remain' });
      expect((await UserModel.findById(solo.admin.id).lean())?.role).toBe('admin');

      // With a second admin, one of them may step down.
      const second = await solo.api().post('/api/admin/users', newUser('second-admin', 'admin'));
      const stepDown = await solo.api().put(`/api/admin/users/${second.body.id}`, {
        ...newUser('second-admin', 'editor'),
        password: undefined,
      });
      expect(stepDown.status).toBe(200);
    } finally {
      await solo.restore();
    }
  });
});

/** Leaves exactly one admin in the database for a test, then puts the others back. */
async function createTestContextWithOneAdmin() {
  const others = (await UserModel.find({ role: 'admin' }).lean()).filter(
    (other) => String(other._id) !== admin.id,
  );
  await UserModel.updateMany(
    { _id: trusted({ $in: others.map((other) => other._id) }) },
    { $set: { role: 'viewer' } },
  );
  return {
    admin,
    api,
    async restore() {
      await UserModel.updateMany(
        { _id: trusted({ $in: others.map((other) => other._id) }) },
        { $set: { role: 'admin' } },
      );
    },
  };
}
