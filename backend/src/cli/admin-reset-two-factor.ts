import { findUserByLogin, removeTwoFactor } from '@agency/platform';
import { recordActivity } from '../modules/activity-log';

export const RESET_USAGE = `Usage: npm run admin:reset-two-factor -- <username or e-mail>

Turns off the second factor of a staff member who lost both their phone and
their recovery codes, and ends every session of theirs: at the next sign-in
they enrol again. For when no admin can do it in User Management (the only
admin is the one locked out). Needs MONGODB_URI.`;

/**
 * Resets the second factor of the user named (username or e-mail) and logs
 * it; answers the username, or null when nobody has that name.
 */
export async function resetTwoFactorOf(identifier: string): Promise<string | null> {
  const user = await findUserByLogin(identifier);
  if (!user) return null;
  await removeTwoFactor(String(user._id), { endSessions: true });
  await recordActivity({
    actor: null,
    action: 'user.two-factor-reset',
    target: { type: 'user', id: String(user._id), label: user.username },
    // Done on the server's command line, not over HTTP.
    ip: 'command line',
  });
  return user.username;
}
