import { UserModel } from './user.model';
import { hashPassword } from './password';

export interface DemoAdmin {
  username: string;
  email: string;
  password: string;
}

/**
 * Demo mode only: makes sure the demo admin exists with the configured
 * password, so the credentials printed by `npm start` always work.
 */
export async function ensureDemoAdmin({ username, email, password }: DemoAdmin): Promise<void> {
  const passwordHash = await hashPassword(password);
  await UserModel.updateOne(
    { username: username.toLowerCase() },
    {
      $set: { email: email.toLowerCase(), role: 'admin', passwordHash },
      $setOnInsert: { username: username.toLowerCase() },
    },
    { upsert: true },
  ).exec();
}
