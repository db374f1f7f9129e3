import type { UserDto } from '@agency/contracts';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useCallback, useState } from 'react';
import { DeleteConfirmDialog } from '../../components/admin/delete-confirm-dialog';
import { PageHeading } from '../../components/admin/page-heading';
import { RequirePermission } from '../../components/admin/require-permission';
import { useAdminCan, useAdminSession } from '../../lib/admin-session';
import { useNamespace } from '../../lib/translations';
import { ConfirmDialog } from '../../components/admin/confirm-dialog';
import { useToast } from '../../lib/use-toast';
import {
  useDeleteUserMutation,
  useEndUserSessionsMutation,
  useResetUserTwoFactorMutation,
} from './api/users-api';
import { ActivityLog } from './components/activity-log';
import { UserDialog } from './components/user-dialog';
import { UsersList } from './components/users-list';
import { USERS_NAMESPACE } from './users-namespace';

type Editing = { mode: 'add' } | { mode: 'edit'; user: UserDto } | null;

type SecurityAction = 'two-factor' | 'sessions';

/**
 * The security action asked for on a user (reset their second factor, end
 * their sessions), and the action itself once confirmed: a toast either way.
 */
function useUserSecurity() {
  const { t } = useNamespace(USERS_NAMESPACE);
  const [securing, setSecuring] = useState<{ user: UserDto; action: SecurityAction } | null>(null);
  const [resetTwoFactor, { isLoading: resetting }] = useResetUserTwoFactorMutation();
  const [endSessions, { isLoading: ending }] = useEndUserSessionsMutation();
  const toast = useToast();
  const onSecure = useCallback(
    (user: UserDto, action: SecurityAction) => setSecuring({ user, action }),
    [],
  );
  const secure = async () => {
    if (!securing) return;
    const { user, action } = securing;
    try {
      if (action === 'two-factor') await resetTwoFactor(user.id).unwrap();
      else await endSessions(user.id).unwrap();
      toast({
        title:
          action === 'two-factor'
            ? t('security.twoFactorReset', { username: user.username })
            : t('security.sessionsEnded', { username: user.username }),
        variant: 'success',
      });
    } catch {
      toast({
        title: t('toasts.errorTitle'),
        description: t('security.failed'),
        variant: 'destructive',
      });
    }
    setSecuring(null);
  };
  return { securing, setSecuring, onSecure, secure, busy: resetting || ending };
}

/** Asks before resetting a user's second factor or ending their sessions. */
function SecureUserDialog({ security }: { security: ReturnType<typeof useUserSecurity> }) {
  const { t } = useNamespace(USERS_NAMESPACE);
  const { securing, setSecuring, secure, busy } = security;
  return (
    <ConfirmDialog
      open={securing !== null}
      title={
        securing?.action === 'two-factor'
          ? t('security.confirmResetTitle', { username: securing.user.username })
          : t('security.confirmEndTitle', { username: securing?.user.username ?? '' })
      }
      description={
        securing?.action === 'two-factor'
          ? t('security.confirmResetText')
          : t('security.confirmEndText')
      }
      confirmLabel={securing?.action === 'two-factor' ? t('security.reset') : t('security.endAll')}
      destructive
      busy={busy}
      onConfirm={() => void secure()}
      onClose={() => setSecuring(null)}
    />
  );
}

/** /admin/users: staff accounts and Recent Activity (the admin role only). */
export function AdminUsersPage() {
  const { t } = useNamespace(USERS_NAMESPACE);
  const session = useAdminSession();
  const canWrite = useAdminCan('users:write');
  const canReadActivity = useAdminCan('activity:read');
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<UserDto | null>(null);
  const [deleteUser] = useDeleteUserMutation();
  const security = useUserSecurity();
  const selfId = session?.user.id;

  const onEdit = useCallback((user: UserDto) => setEditing({ mode: 'edit', user }), []);
  const onDelete = useCallback((user: UserDto) => setDeleting(user), []);

  return (
    <RequirePermission permission="users:read">
      <PageHeading
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          canWrite ? (
            <Button
              variant="contained"
              startIcon={<PersonAddIcon />}
              onClick={() => setEditing({ mode: 'add' })}
            >
              {t('add')}
            </Button>
          ) : null
        }
      />
      <UsersList
        selfId={selfId}
        canWrite={canWrite}
        onEdit={onEdit}
        onDelete={onDelete}
        onSecure={security.onSecure}
      />
      {canReadActivity ? (
        <Box sx={{ mt: 3 }}>
          <ActivityLog />
        </Box>
      ) : null}
      {editing ? (
        <UserDialog
          user={editing.mode === 'edit' ? editing.user : undefined}
          isSelf={editing.mode === 'edit' && editing.user.id === selfId}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <SecureUserDialog security={security} />
      <DeleteConfirmDialog
        item={deleting}
        title={(item) => t('confirmDelete.title', { username: item.username })}
        description={t('confirmDelete.description')}
        confirmLabel={t('confirmDelete.confirm')}
        remove={deleteUser}
        deleted={t('toasts.deleted')}
        failed={{ title: t('toasts.errorTitle'), fallback: t('toasts.deleteFailed') }}
        onClose={() => setDeleting(null)}
      />
    </RequirePermission>
  );
}
