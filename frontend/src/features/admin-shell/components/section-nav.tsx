import { can } from '@agency/contracts';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';
import { NavLink, useLocation } from 'react-router-dom';
import type { AdminUser } from '../../../lib/admin-session';
import { useNamespace } from '../../../lib/translations';
import { ADMIN_SECTION_LINKS } from '../admin-sections';
import { SHELL_NAMESPACE } from '../shell-namespace';

export interface SectionNavProps {
  user: AdminUser;
  compact: boolean;
  /** A link was followed (the phone's drawer closes). */
  onNavigate?: () => void;
}

/** The sections this user's role may open, the current one marked. */
export function SectionNav({ user, compact, onNavigate }: SectionNavProps) {
  const { t } = useNamespace(SHELL_NAMESPACE);
  const { pathname } = useLocation();
  const links = ADMIN_SECTION_LINKS.filter(
    ({ permission }) => !permission || can(user.role, permission),
  );
  return (
    <List component="nav" aria-label={t('nav.label')} sx={{ px: 1 }}>
      {links.map(({ section, path, icon }) => {
        const label = t(`nav.${section}`);
        const current = pathname === path || pathname.startsWith(`${path}/`);
        const item = (
          <ListItemButton
            key={section}
            component={NavLink}
            to={path}
            selected={current}
            aria-current={current ? 'page' : undefined}
            aria-label={compact ? label : undefined}
            onClick={onNavigate}
            sx={{ borderRadius: 2, mb: 0.5, minHeight: 44 }}
          >
            <ListItemIcon sx={{ minWidth: compact ? 0 : 40 }}>{icon}</ListItemIcon>
            {compact ? null : <ListItemText primary={label} />}
          </ListItemButton>
        );
        return compact ? (
          <Tooltip key={section} title={label} placement="right">
            {item}
          </Tooltip>
        ) : (
          item
        );
      })}
    </List>
  );
}
