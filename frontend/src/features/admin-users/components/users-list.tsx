import { ROLES, USER_SORT_FIELDS, type UserDto, type UserListQuery } from '@agency/contracts';
import GroupIcon from '@mui/icons-material/Group';
import { useCallback, useMemo } from 'react';
import { ADMIN_COMMON_NAMESPACE } from '../../../components/admin/admin-common-namespace';
import { AdminList } from '../../../components/admin/admin-list';
import { EmptyState } from '../../../components/admin/empty-state';
import { FilterSelect } from '../../../components/admin/filter-select';
import { ListToolbar } from '../../../components/admin/list-toolbar';
import { useFormatters } from '../../../lib/use-formatters';
import { useListParams } from '../../../lib/use-list-params';
import { useNamespace } from '../../../lib/translations';
import { useUserListQuery } from '../api/users-api';
import { USERS_NAMESPACE } from '../users-namespace';
import { UserCard } from './user-card';
import { userActions, userColumns } from './user-columns';

export interface UsersListProps {
  /** The signed-in user's id: their own row cannot be deleted. */
  selfId: string | undefined;
  canWrite: boolean;
  onEdit: (user: UserDto) => void;
  onDelete: (user: UserDto) => void;
  /** An account-security action asked for: reset the second factor, or end every session. */
  onSecure: (user: UserDto, action: 'two-factor' | 'sessions') => void;
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
  const actions = useCallback(
    (user: UserDto) => userActions(user, { t, selfId, onEdit, onDelete, onSecure }),
    [t, selfId, onEdit, onDelete, onSecure],
  );
  // Columns rebuilt on every render would reset the grid: only their inputs renew them.
  const columns = useMemo(
    () => userColumns({ t, tCommon, format, selfId, actions: canWrite ? actions : undefined }),
    [t, tCommon, format, selfId, canWrite, actions],
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
      <AdminList
        label={t('tableLabel')}
        query={query}
        list={list}
        empty={<EmptyState icon={<GroupIcon />} title={t('empty')} description={t('emptyHint')} />}
        columns={columns}
        renderCard={(user) => (
          <UserCard user={user} selfId={selfId} actions={canWrite ? actions(user) : undefined} />
        )}
      />
    </>
  );
}
