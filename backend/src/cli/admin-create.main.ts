import { input, password, select } from '@inquirer/prompts';
import { loadEnv, sharedEnvSpec, connectDatabase, disconnectDatabase } from '@agency/platform';
import { createUser } from '../modules/users';
import {
  USAGE,
  collectNewUser,
  describeFailure,
  parseAdminCreateArgs,
  type Prompter,
} from './admin-create';

const terminalPrompter: Prompter = {
  text: (message) => input({ message, required: true }),
  secret: (message) => password({ message, mask: '*' }),
  choice: (message, choices) =>
    select({ message, choices: choices.map((value) => ({ value })), default: 'admin' }),
};

async function main(): Promise<number> {
  const args = parseAdminCreateArgs(process.argv.slice(2));
  if (args.help) {
    console.warn(USAGE);
    return 0;
  }
  const env = loadEnv(process.env, { MONGODB_URI: sharedEnvSpec.MONGODB_URI });
  const user = await collectNewUser(args, process.stdin.isTTY ? terminalPrompter : undefined);
  await connectDatabase(env.MONGODB_URI);
  try {
    const created = await createUser(user);
    console.warn(
      `Created ${created.role} "${created.username}" <${created.email}> (id ${created.id}).`,
    );
    return 0;
  } finally {
    await disconnectDatabase();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`admin:create: ${describeFailure(error)}`);
    process.exit(1);
  },
);
