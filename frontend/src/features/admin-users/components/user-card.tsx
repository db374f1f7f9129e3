import type { UserDto } from '@agency/contracts';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { ADMIN_COMMON_NAMESPACE } from '../../../components/admin/admin-common-namespace';
import { RecordCard } from '../../../components/admin/record-card';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { USERS_NAMESPACE } from '../users-namespace';
import { RoleChip, userDisplayName, userLastLogin } from './user-columns';

/** One staff account as a phone shows it, in place of a table row. */
export function UserCard({
  user,
  selfId,
  actions,
}: {
  user: UserDto;
  selfId: string | undefined;
  actions?: ReactNode;
}) {
  const { t } = useNamespace(USERS_NAMESPACE);
  const { t: tCommon } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const format = useFormatters();
  return (
    <RecordCard
      title={userDisplayName(user, selfId, t)}
      badge={<RoleChip role={user.role} />}
      actions={actions}
    >
      <Typography variant="body2" sx={{ color: 'text.secondary', wordBreak: 'break-all' }}>
        {user.email}
      </Typography>
      <Typography variant="body2" sx={{ mt: 0.5 }}>
        {t('columns.lastLogin')}: {userLastLogin(user, tCommon, format)}
      </Typography>
    </RecordCard>
  );
}
