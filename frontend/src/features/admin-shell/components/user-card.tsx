import Avatar from '@mui/material/Avatar';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ADMIN_COMMON_NAMESPACE } from '../../../components/admin/admin-common-namespace';
import type { AdminUser } from '../../../lib/admin-session';
import { useNamespace } from '../../../lib/translations';

export interface UserCardProps {
  user: AdminUser;
  /** The collapsed sidebar shows the avatar only. */
  compact: boolean;
}

/** Who is signed in, with their role; the admin badge stands out. */
export function UserCard({ user, compact }: UserCardProps) {
  const { t } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const isAdmin = user.role === 'admin';
  const roleLabel = t(`roles.${user.role}`);
  return (
    <Stack
      direction="row"
      spacing={1.5}
      sx={{ alignItems: 'center', p: 2, minWidth: 0 }}
      aria-label={`${user.username}, ${roleLabel}`}
    >
      <Avatar sx={{ bgcolor: isAdmin ? 'secondary.main' : 'primary.main', flexShrink: 0 }}>
        {user.username.slice(0, 1).toUpperCase()}
      </Avatar>
      {compact ? null : (
        <Stack spacing={0.5} sx={{ minWidth: 0 }}>
          <Typography sx={{ fontWeight: 700 }} noWrap>
            {user.username}
          </Typography>
          <Chip
            size="small"
            label={roleLabel}
            color={isAdmin ? 'secondary' : 'default'}
            variant={isAdmin ? 'filled' : 'outlined'}
            sx={{ alignSelf: 'flex-start', fontWeight: isAdmin ? 700 : 500 }}
          />
        </Stack>
      )}
    </Stack>
  );
}
