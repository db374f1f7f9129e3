import { ROLES, USER_SORT_FIELDS, type UserDto, type UserListQuery } from '@agency/contracts';
import GroupIcon from '@mui/icons-material/Group';
import LogoutIcon from '@mui/icons-material/Logout';
import PhonelinkEraseIcon from '@mui/icons-material/PhonelinkErase';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useCallback, useMemo } from 'react';
import { ADMIN_COMMON_NAMESPACE } from '../../../components/admin/admin-common-namespace';
import { EmptyState } from '../../../components/admin/empty-state';
import { FilterSelect } from '../../../components/admin/filter-select';
import { StatusChip } from '../../../components/admin/status-chip';
import { AdminList } from '../../../components/admin/admin-list';
import { ListToolbar } from '../../../components/admin/list-toolbar';
import { RecordCard } from '../../../components/admin/record-card';
import {
  actionsColumn,
  actionsColumnWidth,
  deleteAction,
  editAction,
  RowActions,
} from '../../../components/admin/row-actions';
import { useFormatters } from '../../../lib/use-formatters';
import { useListParams } from '../../../lib/use-list-params';
import { useNamespace } from '../../../lib/translations';
import { useUserListQuery } from '../api/users-api';
import { USERS_NAMESPACE } from '../users-namespace';

export interface UsersListProps {
  /** The signed-in user's id: their own row cannot be deleted. */
  selfId: string | undefined;
  canWrite: boolean;
  onEdit: (user: UserDto) => void;
  onDelete: (user: UserDto) => void;
  /** An account-security action asked for: reset the second factor, or end every session. */
  onSecure: (user: UserDto, action: 'two-factor' | 'sessions') => void;
}

function RoleChip({ role }: { role: UserDto['role'] }) {
  const { t } = useNamespace(ADMIN_COMMON_NAMESPACE);
  return (
    <StatusChip
      label={t(`roles.${role}`)}
      color={role === 'admin' ? 'secondary' : 'default'}
      highlighted={role === 'admin'}
    />
  );
}

/** The staff accounts: search, role filter, table (cards on a phone). */
export function UsersList({ selfId, canWrite, onEdit, onDelete, onSecure }: UsersListProps) {
  const { t } = useNamespace(USERS_NAMESPACE);
  const { t: tCommon } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const format = useFormatters();
  const list = useListParams<'role'>({
    sortFields: USER_SORT_FIELDS,
    defaultSort: 'username',
    filters: ['role'],
  });
  const query = useUserListQuery(list.query as Partial<UserListQuery>);

  const lastLogin = useCallback(
    (user: UserDto) => (user.lastLoginAt ? format.dateTime(user.lastLoginAt) : tCommon('never')),
    [format, tCommon],
  );

  const actions = useCallback(
    (user: UserDto) => (
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
    ),
    [t, selfId, onEdit, onDelete, onSecure],
  );

  const columns = useMemo<GridColDef<UserDto>[]>(
    () => [
      {
        field: 'username',
        headerName: t('columns.username'),
        flex: 1,
        minWidth: 110,
        valueFormatter: (value: string, row) =>
          row.id === selfId ? `${value} ${t('you')}` : value,
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
        valueFormatter: (_value, row) => lastLogin(row),
      },
      // Edit, reset two-factor, end sessions, delete: all four on one line.
      ...(canWrite ? [actionsColumn(t('columns.actions'), actions, actionsColumnWidth(4))] : []),
    ],
    [t, selfId, canWrite, lastLogin, actions],
  );

  const body = (
    <AdminList
      label={t('tableLabel')}
      query={query}
      list={list}
      empty={<EmptyState icon={<GroupIcon />} title={t('empty')} description={t('emptyHint')} />}
      columns={columns}
      renderCard={(user) => (
        <RecordCard
          title={user.id === selfId ? `${user.username} ${t('you')}` : user.username}
          badge={<RoleChip role={user.role} />}
          actions={canWrite ? actions(user) : undefined}
        >
          <Typography variant="body2" sx={{ color: 'text.secondary', wordBreak: 'break-all' }}>
            {user.email}
          </Typography>
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            {t('columns.lastLogin')}: {lastLogin(user)}
          </Typography>
        </RecordCard>
      )}
    />
  );

  return (
    <>
      <ListToolbar list={list}>
        <FilterSelect
          label={t('roleFilter')}
          value={list.filters.role}
          onChange={(role) => list.setFilter('role', role)}
          allLabel={t('allRoles')}
          options={ROLES.map((role) => ({ value: role, label: tCommon(`roles.${role}`) }))}
        />
      </ListToolbar>
      {body}
    </>
  );
}
