import { parseArgs } from 'node:util';
import { ValidationError } from 'yup';
import {
  ROLES,
  formatValidationMessage,
  isValidationMessage,
  userCreateSchema,
  type Role,
  type UserCreateInput,
} from '@agency/contracts';
import { DomainError } from '@agency/platform';

/** What the command asks a person when a flag is missing. */
export interface Prompter {
  text(question: string): Promise<string>;
  secret(question: string): Promise<string>;
  choice(question: string, choices: readonly Role[]): Promise<Role>;
}

export const USAGE = `Creates an admin dashboard user (the first admin, or any other).

  npm run admin:create -- [--username NAME] [--email ADDRESS] [--role ${ROLES.join('|')}] [--password PASSWORD]

Asks for whatever is not given (the password without echo); without a terminal
every value must be given. Reads MONGODB_URI from the environment.`;

export interface AdminCreateArgs {
  username?: string;
  email?: string;
  role?: string;
  password?: string;
  help: boolean;
}

export function parseAdminCreateArgs(argv: readonly string[]): AdminCreateArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      username: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      password: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  return { ...values, help: values.help ?? false };
}

export class UsageError extends Error {}

/**
 * Fills what the flags leave out by asking, or fails naming the flag when
 * nobody can be asked, then validates with the same schema as the API.
 */
export async function collectNewUser(
  args: AdminCreateArgs,
  prompter: Prompter | undefined,
): Promise<UserCreateInput> {
  const ask = async (flag: string, question: (asker: Prompter) => Promise<string>) => {
    if (!prompter) throw new UsageError(`--${flag} is required when no terminal is attached`);
    return question(prompter);
  };
  const raw = {
    username: args.username ?? (await ask('username', (asker) => asker.text('Username'))),
    email: args.email ?? (await ask('email', (asker) => asker.text('E-mail'))),
    role: args.role ?? (prompter ? await prompter.choice('Role', ROLES) : 'admin'),
    password:
      args.password ??
      (await ask('password', (asker) => asker.secret('Password (12 characters or more)'))),
  };
  try {
    return await userCreateSchema.validate(raw, { abortEarly: false, stripUnknown: true });
  } catch (error: unknown) {
    if (!(error instanceof ValidationError)) throw error;
    const reasons = error.inner.map((issue) => {
      const message: unknown = issue.message;
      const text = isValidationMessage(message)
        ? formatValidationMessage(message, 'en')
        : String(message);
      return `${issue.path ?? 'value'}: ${text}`;
    });
    throw new UsageError(reasons.join('; '));
  }
}

/** Turns a service refusal (e.g. a taken username) into one readable line. */
export function describeFailure(error: unknown): string {
  if (error instanceof UsageError) return error.message;
  if (error instanceof DomainError) {
    const fields = error.fields ? Object.values(error.fields).join('; ') : '';
    return fields ? `${error.message}: ${fields}` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
