import {
  ROLES,
  userCreateSchema,
  userUpdateSchema,
  type Role,
  type UserDto,
} from '@agency/contracts';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useFormik } from 'formik';
import { ADMIN_COMMON_NAMESPACE } from '../../../components/admin/admin-common-namespace';
import { DialogFields } from '../../../components/admin/dialog-fields';
import { FormDialog } from '../../../components/admin/form-dialog';
import { PasswordField } from '../../../components/admin/password-field';
import { useFormFields } from '../../../components/admin/use-form-fields';
import { useRecordSubmit } from '../../../components/admin/use-record-submit';
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

/** Add User / Edit User (spec 5): username and e-mail required, password only on create. */
export function UserDialog({ user, isSelf, onClose }: UserDialogProps) {
  const { t } = useNamespace(USERS_NAMESPACE);
  const { t: tCommon } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const [createUser] = useCreateUserMutation();
  const [updateUser] = useUpdateUserMutation();
  const editing = Boolean(user);
  const schema = editing ? userUpdateSchema : userCreateSchema;

  const submit = useRecordSubmit({
    fields: USER_FIELDS,
    save: async (values: UserFormValues) => {
      if (user) {
        const body = await userUpdateSchema.validate(values, { stripUnknown: true });
        return updateUser({ id: user.id, body }).unwrap();
      }
      const body = await userCreateSchema.validate(values, { stripUnknown: true });
      return createUser(body).unwrap();
    },
    saved: user ? t('toasts.updated') : t('toasts.created'),
    failed: {
      title: t('toasts.errorTitle'),
      fallback: user ? t('toasts.updateFailed') : t('toasts.createFailed'),
    },
    onSaved: onClose,
  });

  const formik = useFormik<UserFormValues>({
    initialValues: {
      username: user?.username ?? '',
      email: user?.email ?? '',
      role: user?.role ?? 'viewer',
      password: '',
    },
    validationSchema: schema,
    onSubmit: submit,
  });
  const field = useFormFields(formik);

  return (
    <FormDialog
      open
      title={editing ? t('dialog.editTitle') : t('dialog.addTitle')}
      submitLabel={editing ? t('dialog.save') : t('dialog.create')}
      busy={formik.isSubmitting}
      onSubmit={formik.handleSubmit}
      onClose={onClose}
    >
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
          {ROLES.map((role) => (
            <MenuItem key={role} value={role}>
              {tCommon(`roles.${role}`)}
            </MenuItem>
          ))}
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
