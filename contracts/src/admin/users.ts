import { object, type InferType } from 'yup';
import { ROLES, type Role } from '../roles';
import { message, oneOfText, optionalText, text } from '../validation/fields';
import { emailAddress } from '../validation/email-address';
import { listQuerySchema } from './list-query';
import { newPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USERNAME_MAX_LENGTH } from './auth';

const username = () =>
  text(USERNAME_MAX_LENGTH)
    .required(message('usernameRequired'))
    .matches(/^[A-Za-z0-9._-]+$/, { message: message('usernameFormat') });

/** The user modal on create: every field, the role defaulting to viewer. */
export const userCreateSchema = object({
  username: username(),
  email: emailAddress(),
  role: oneOfText(ROLES).default('viewer'),
  password: newPassword().required(message('passwordRequired')),
});
export type UserCreateInput = InferType<typeof userCreateSchema>;

/** The user modal on edit: the same fields, the password only when it changes. */
export const userUpdateSchema = object({
  username: username(),
  email: emailAddress(),
  role: oneOfText(ROLES).default('viewer'),
  password: optionalText(PASSWORD_MAX_LENGTH)
    .transform((_value: unknown, original: unknown) =>
      original === '' || original === null ? undefined : original,
    )
    .min(PASSWORD_MIN_LENGTH, message('minLength', { count: PASSWORD_MIN_LENGTH })),
});
export type UserUpdateInput = InferType<typeof userUpdateSchema>;

export const USER_SORT_FIELDS = ['username', 'email', 'role', 'createdAt', 'lastLoginAt'] as const;
export const userListQuerySchema = listQuerySchema({
  sortFields: USER_SORT_FIELDS,
  defaultSort: 'username',
  filters: { role: oneOfText(ROLES).optional() },
});
export type UserListQuery = InferType<typeof userListQuerySchema>;

export interface UserDto {
  id: string;
  username: string;
  email: string;
  role: Role;
  /** Whether the user signs in with a second factor. */
  twoFactorEnabled: boolean;
  /** ISO 8601, or null when the user never signed in ("Never"). */
  lastLoginAt: string | null;
  createdAt: string;
  updatedAt: string;
}
