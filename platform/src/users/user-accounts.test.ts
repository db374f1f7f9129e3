import { Types } from 'mongoose';
import { DomainError } from '../domain-error';
import { useFileDatabase } from '../testing/file-database';
import { UserModel } from '../testing/users-models';
import {
  adminExists,
  assertAnotherAdminExists,
  assertUsernameAndEmailFree,
  findUserById,
  findUserByLogin,
  findUsernameById,
  findUsernamesByIds,
  insertUser,
  recordSuccessfulLogin,
  saveOwnPassword,
  saveUserEdit,
  setPasswordHashAfterReset,
  type StoredUser,
} from '.';

/**
 * The users module against the real store: the API hashes passwords and
 * maps accounts to DTOs; here only what the module reads and writes.
 */
useFileDatabase('useraccounts');
beforeEach(async () => {
  await UserModel.deleteMany({});
});

function account(name: string, role: 'admin' | 'editor' | 'viewer' = 'editor') {
  return { username: name, email: `${name}@agency.test`, role, passwordHash: `hash-of-${name}` };
}

async function stored(name: string, role?: 'admin' | 'editor' | 'viewer'): Promise<StoredUser> {
  return insertUser(account(name, role));
}

async function refusalOf(attempt: Promise<unknown>): Promise<DomainError> {
  const error = await attempt.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe('the users queries', () => {
  it('find an account by username or e-mail in any case, as plain data', async () => {
    const nour = await stored('nour');
    const byName = await findUserByLogin('  NOUR ');
    const byEmail = await findUserByLogin('Nour@Agency.Test');
    expect(String(byName?._id)).toBe(String(nour._id));
    expect(String(byEmail?._id)).toBe(String(nour._id));
    expect(byName).not.toBeInstanceOf(UserModel);
    expect(await findUserByLogin('nobody')).toBeNull();
  });

  it('fill in the defaults of an account stored without them', async () => {
    const { insertedId } = await UserModel.collection.insertOne({
      username: 'legacy',
      email: 'legacy@agency.test',
      role: 'viewer',
      passwordHash: 'x',
    });
    const legacy = await findUserById(String(insertedId));
    expect(legacy?.tokenVersion).toBe(0);
    expect(legacy?.twoFactor).toBeNull();
  });

  it('name users by id, each once, and nobody for no ids', async () => {
    const [sara, omar] = await Promise.all([stored('sara'), stored('omar')]);
    const names = await findUsernamesByIds([String(sara._id), String(omar._id), String(sara._id)]);
    expect([...names.entries()].sort()).toEqual(
      [
        [String(sara._id), 'sara'],
        [String(omar._id), 'omar'],
      ].sort(),
    );
    expect((await findUsernamesByIds([])).size).toBe(0);
    expect(await findUsernameById(String(sara._id))).toBe('sara');
    expect(await findUsernameById(new Types.ObjectId().toHexString())).toBeNull();
  });

  it('tell whether any admin exists', async () => {
    await stored('editor-only');
    expect(await adminExists()).toBe(false);
    await stored('boss', 'admin');
    expect(await adminExists()).toBe(true);
  });
});

describe('the users guards', () => {
  it('refuse a taken username and e-mail in any case, naming both, except for the user itself', async () => {
    const lina = await stored('lina');
    const refusal = await refusalOf(
      assertUsernameAndEmailFree({ username: 'LINA', email: 'LINA@agency.test' }),
    );
    expect(refusal.code).toBe('CONFLICT');
    expect(refusal.message).toBe('A user with this username or e-mail already exists');
    expect(refusal.fields).toEqual({
      username: 'This username is taken',
      email: 'This e-mail is already used',
    });
    await expect(
      assertUsernameAndEmailFree({ username: 'lina', email: 'lina@agency.test' }, String(lina._id)),
    ).resolves.toBeUndefined();
  });

  it('refuse to lose the last admin', async () => {
    const boss = await stored('boss', 'admin');
    const refusal = await refusalOf(assertAnotherAdminExists(String(boss._id)));
    expect(refusal.fields).toEqual({ role: 'At least one admin must remain' });
    await stored('second', 'admin');
    await expect(assertAnotherAdminExists(String(boss._id))).resolves.toBeUndefined();
  });

  it('turn a username taken past the check into the same conflict', async () => {
    await stored('karim');
    const refusal = await refusalOf(
      insertUser({ ...account('karim'), email: 'other@agency.test' }),
    );
    expect(refusal.code).toBe('CONFLICT');
    expect(refusal.message).toBe('A user with this username or e-mail already exists');
  });
});

describe('the users commands', () => {
  it('save an edit over the account as read: a field changed meanwhile stays', async () => {
    const loaded = await stored('hana');
    await recordSuccessfulLogin(String(loaded._id));
    const saved = await saveUserEdit(loaded, {
      username: 'Hana2',
      email: 'hana@agency.test',
      role: 'editor',
    });
    const now = await findUserById(String(loaded._id));
    expect(now?.lastLoginAt).toBeInstanceOf(Date);
    expect(now?.username).toBe('hana2');
    expect(saved.username).toBe('hana2');
    expect(now?.tokenVersion).toBe(0);
  });

  it('raise the token version once for a new role or a new password', async () => {
    const loaded = await stored('yasmine');
    const promoted = await saveUserEdit(loaded, { ...account('yasmine'), role: 'admin' });
    expect(promoted.tokenVersion).toBe(1);
    const rehashed = await saveUserEdit(promoted, {
      ...account('yasmine', 'admin'),
      passwordHash: 'new-hash',
    });
    expect(rehashed.tokenVersion).toBe(2);
    expect((await findUserById(String(loaded._id)))?.passwordHash).toBe('new-hash');
  });

  it('save a new own password and end the other sessions', async () => {
    const loaded = await stored('adam');
    const saved = await saveOwnPassword(loaded, 'adam-new-hash');
    expect(saved.passwordHash).toBe('adam-new-hash');
    expect((await findUserById(String(loaded._id)))?.tokenVersion).toBe(1);
  });

  it('set a password from a reset link, ending every session, and nothing for no user', async () => {
    const loaded = await stored('rim');
    const reset = await setPasswordHashAfterReset(String(loaded._id), 'rim-reset-hash');
    expect(reset?.passwordHash).toBe('rim-reset-hash');
    expect(reset?.tokenVersion).toBe(1);
    expect(await setPasswordHashAfterReset(new Types.ObjectId().toHexString(), 'x')).toBeNull();
  });
});
