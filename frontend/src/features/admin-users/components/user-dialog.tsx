import {
  ROLES,
  userCreateSchema,
  userUpdateSchema,
  type Role,
  type UserDto,
} from '@agency/contracts';
import TextField from '@mui/material/TextField';
import { ADMIN_COMMON_NAMESPACE } from '../../../components/admin/admin-common-namespace';
import { DialogFields } from '../../../components/admin/dialog-fields';
import { FormDialog } from '../../../components/admin/form-dialog';
import { PasswordField } from '../../../components/admin/password-field';
import { optionItems } from '../../../components/admin/option-items';
import { useRecordForm } from '../../../components/admin/use-record-form';
import { useNamespace } from '../../../lib/translations';
import { useCreateUserMutation, useUpdateUserMutation } from '../api/users-api';
import { USERS_NAMESPACE } from '../users-namespace';

interface UserFormValues {
  username: string;
  email: string;
  role: Role;
  password: string;
}

const USER_FIELDS = ['username', 'email', 'role', 'password'] as const;

export interface UserDialogProps {
  /** The user being edited; none to add one. */
  user?: UserDto;
  /** Editing one's own account: the role stays (changing it would end this session). */
  isSelf: boolean;
  onClose: () => void;
}

/** Add User / Edit User: username and e-mail required, password only on create. */
export function UserDialog({ user, isSelf, onClose }: UserDialogProps) {
  const { t } = useNamespace(USERS_NAMESPACE);
  const { t: tCommon } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const [createUser] = useCreateUserMutation();
  const [updateUser] = useUpdateUserMutation();
  const { field, dialog, editing } = useRecordForm({
    record: user,
    namespace: USERS_NAMESPACE,
    fields: USER_FIELDS,
    initialValues: {
      username: user?.username ?? '',
      email: user?.email ?? '',
      role: user?.role ?? 'viewer',
      password: '',
    },
    // The password is required to create an account, optional when editing one.
    validationSchema: user ? userUpdateSchema : userCreateSchema,
    save: async (values: UserFormValues) => {
      if (user) {
        const body = await userUpdateSchema.validate(values, { stripUnknown: true });
        return updateUser({ id: user.id, body }).unwrap();
      }
      const body = await userCreateSchema.validate(values, { stripUnknown: true });
      return createUser(body).unwrap();
    },
    onClose,
  });

  return (
    <FormDialog {...dialog}>
      <DialogFields>
        <TextField
          {...field('username', t('dialog.username'))}
          required
          autoComplete="off"
          autoFocus
        />
        <TextField
          {...field('email', t('dialog.email'))}
          type="email"
          required
          autoComplete="off"
        />
        <TextField
          {...field('role', t('dialog.role'))}
          select
          disabled={isSelf}
          helperText={isSelf ? t('dialog.ownRole') : field('role', '').helperText}
        >
          {optionItems(ROLES, (role) => tCommon(`roles.${role}`))}
        </TextField>
        <PasswordField
          {...field('password', t('dialog.password'))}
          required={!editing}
          autoComplete="new-password"
          helperText={
            field('password', '').helperText ??
            (editing ? t('dialog.passwordKeep') : t('dialog.passwordHint'))
          }
        />
      </DialogFields>
    </FormDialog>
  );
}
