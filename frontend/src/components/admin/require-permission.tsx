import type { Permission } from '@agency/contracts';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import type { ReactNode } from 'react';
import { useAdminCan } from '../../lib/admin-session';
import { useNamespace } from '../../lib/translations';
import { ADMIN_COMMON_NAMESPACE } from './admin-common-namespace';
import { EmptyState } from './empty-state';

export interface RequirePermissionProps {
  permission: Permission;
  children: ReactNode;
}

/**
 * A section the role may not read (its link is not offered, but an address
 * can be typed): say so, rather than asking the API for a 403.
 */
export function RequirePermission({ permission, children }: RequirePermissionProps) {
  const { t } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const allowed = useAdminCan(permission);
  if (allowed) return children;
  return (
    <EmptyState
      icon={<LockOutlinedIcon />}
      title={t('forbidden.title')}
      titleComponent="h1"
      description={t('forbidden.description')}
    />
  );
}
