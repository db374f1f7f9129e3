import type { UserDto } from '@agency/contracts';
import LogoutIcon from '@mui/icons-material/Logout';
import PhonelinkEraseIcon from '@mui/icons-material/PhonelinkErase';
import type { GridColDef } from '@mui/x-data-grid';
import type { ReactNode } from 'react';
import { ADMIN_COMMON_NAMESPACE } from '../../../components/admin/admin-common-namespace';
import type { Translate } from '../../../components/admin/admin-columns';
import {
  actionsColumn,
  actionsColumnWidth,
  deleteAction,
  editAction,
  RowActions,
} from '../../../components/admin/row-actions';
import { StatusChip } from '../../../components/admin/status-chip';
import type { Formatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';

export function RoleChip({ role }: { role: UserDto['role'] }) {
  const { t } = useNamespace(ADMIN_COMMON_NAMESPACE);
  return (
    <StatusChip
      label={t(`roles.${role}`)}
      color={role === 'admin' ? 'secondary' : 'default'}
      highlighted={role === 'admin'}
    />
  );
}

/** When the user last signed in, on the agency's clock, or that they never have. */
export function userLastLogin(user: UserDto, tCommon: Translate, format: Formatters): string {
  return user.lastLoginAt ? format.dateTime(user.lastLoginAt) : tCommon('never');
}

/** The user's name, saying "(you)" on the signed-in user's own account. */
export function userDisplayName(user: UserDto, selfId: string | undefined, t: Translate): string {
  return user.id === selfId ? `${user.username} ${t('you')}` : user.username;
}

export interface UserActionsOptions {
  t: Translate;
  /** The signed-in user's id: they may not delete their own account nor reset its second factor here. */
  selfId: string | undefined;
  onEdit: (user: UserDto) => void;
  onDelete: (user: UserDto) => void;
  onSecure: (user: UserDto, action: 'two-factor' | 'sessions') => void;
}

/** A user's buttons: edit, reset the second factor (when on), end every session, delete. */
export function userActions(
  user: UserDto,
  { t, selfId, onEdit, onDelete, onSecure }: UserActionsOptions,
): ReactNode {
  return (
    <RowActions
      actions={[
        editAction(t('edit', { username: user.username }), () => onEdit(user)),
        user.twoFactorEnabled && {
          label: t('security.resetTwoFactor', { username: user.username }),
          icon: <PhonelinkEraseIcon />,
          onClick: () => onSecure(user, 'two-factor'),
          disabled: user.id === selfId,
          disabledReason: t('security.ownTwoFactor'),
        },
        {
          label: t('security.endSessions', { username: user.username }),
          icon: <LogoutIcon />,
          onClick: () => onSecure(user, 'sessions'),
        },
        deleteAction(t('delete', { username: user.username }), () => onDelete(user), {
          disabled: user.id === selfId,
          disabledReason: t('ownAccount'),
        }),
      ]}
    />
  );
}

export interface UserColumnsOptions {
  t: Translate;
  tCommon: Translate;
  format: Formatters;
  selfId: string | undefined;
  /** The row's buttons, for a role that may change accounts only. */
  actions: ((user: UserDto) => ReactNode) | undefined;
}

/** The staff accounts table's columns. */
export function userColumns({
  t,
  tCommon,
  format,
  selfId,
  actions,
}: UserColumnsOptions): GridColDef<UserDto>[] {
  return [
    {
      field: 'username',
      headerName: t('columns.username'),
      flex: 1,
      minWidth: 110,
      valueFormatter: (value: string, row) => (row.id === selfId ? `${value} ${t('you')}` : value),
    },
    { field: 'email', headerName: t('columns.email'), flex: 1.4, minWidth: 150 },
    {
      field: 'role',
      headerName: t('columns.role'),
      width: 100,
      renderCell: ({ row }) => <RoleChip role={row.role} />,
    },
    {
      field: 'status',
      headerName: t('columns.status'),
      width: 90,
      sortable: false,
      // Every account that exists can sign in (so the status reads Active for all).
      renderCell: () => <StatusChip label={t('active')} color="success" />,
    },
    {
      field: 'twoFactorEnabled',
      headerName: t('columns.twoFactor'),
      width: 100,
      sortable: false,
      renderCell: ({ row }) =>
        row.twoFactorEnabled ? (
          <StatusChip label={t('security.on')} color="success" />
        ) : (
          t('security.off')
        ),
    },
    {
      field: 'lastLoginAt',
      headerName: t('columns.lastLogin'),
      // A time with its zone named: "Nov 28, 2026, 12:17 PM GMT+1".
      width: 230,
      valueFormatter: (_value, row) => userLastLogin(row, tCommon, format),
    },
    // Edit, reset two-factor, end sessions, delete: all four on one line.
    ...(actions ? [actionsColumn(t('columns.actions'), actions, actionsColumnWidth(4))] : []),
  ];
}
