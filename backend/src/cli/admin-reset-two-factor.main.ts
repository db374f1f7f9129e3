import { loadEnv, sharedEnvSpec, connectDatabase, disconnectDatabase } from '@agency/platform';
import { RESET_USAGE, resetTwoFactorOf } from './admin-reset-two-factor';

async function main(): Promise<number> {
  const [identifier, ...rest] = process.argv.slice(2).filter((arg) => arg !== '--');
  if (!identifier || rest.length > 0 || identifier === '--help') {
    console.warn(RESET_USAGE);
    return identifier === '--help' ? 0 : 2;
  }
  const env = loadEnv(process.env, { MONGODB_URI: sharedEnvSpec.MONGODB_URI });
  await connectDatabase(env.MONGODB_URI);
  try {
    const username = await resetTwoFactorOf(identifier);
    if (!username) {
      console.error(`admin:reset-two-factor: nobody is named "${identifier}"`);
      return 1;
    }
    console.warn(
      `Two-factor sign-in of "${username}" is off and their sessions ended; they enrol again at the next sign-in.`,
    );
    return 0;
  } finally {
    await disconnectDatabase();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(
      `admin:reset-two-factor: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  },
);
