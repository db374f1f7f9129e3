import { useFileDatabase } from '@agency/platform/testing/file-database';
import { ActivityLogModel } from '@agency/platform/testing/activity-models';
import { enableTwoFactor, savePendingTwoFactorSecret } from '@agency/platform';
import { createUser } from '../modules/users';
import { UserModel } from '@agency/platform/testing/users-models';
import { resetTwoFactorOf } from './admin-reset-two-factor';

useFileDatabase('cli-reset-two-factor');

describe('admin:reset-two-factor', () => {
  it("turns off a user's second factor, ends their sessions and logs it", async () => {
    const user = await createUser({
      username: 'locked-out',
      email: 'locked@agency.tn',
      role: 'admin',
      password: 'a long enough password',
    });
    await savePendingTwoFactorSecret(user.id, 'sealed');
    await enableTwoFactor(user.id, 'sealed', { secret: 'sealed', lastStep: 1, recoveryCodes: [] });
    const before = await UserModel.findById(user.id).lean();
    expect(before?.twoFactor).not.toBeNull();

    expect(await resetTwoFactorOf('LOCKED@agency.tn')).toBe('locked-out');

    const after = await UserModel.findById(user.id).lean();
    expect(after?.twoFactor).toBeNull();
    expect(after?.tokenVersion).toBe((before?.tokenVersion ?? 0) + 1);
    expect(
      await ActivityLogModel.exists({ action: 'user.two-factor-reset', 'target.id': user.id }),
    ).toBeTruthy();
    expect(await resetTwoFactorOf('nobody')).toBeNull();
  });
});
