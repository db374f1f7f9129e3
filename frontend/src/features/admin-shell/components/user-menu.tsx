import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import LogoutIcon from '@mui/icons-material/Logout';
import Avatar from '@mui/material/Avatar';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import type { AdminUser } from '../../../lib/admin-session';
import { useAppDispatch, useAppSelector } from '../../../lib/hooks';
import { toggleThemeMode } from '../../../lib/preferences-slice';
import { useNamespace } from '../../../lib/translations';
import { SHELL_NAMESPACE } from '../shell-namespace';

export interface UserMenuProps {
  user: AdminUser;
  onSignOut: () => void;
}

/** The header's menu: the e-mail signed in, the light/dark toggle and Sign Out. */
export function UserMenu({ user, onSignOut }: UserMenuProps) {
  const { t } = useNamespace(SHELL_NAMESPACE);
  const dispatch = useAppDispatch();
  const themeMode = useAppSelector((state) => state.preferences.themeMode);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const close = () => setAnchor(null);

  return (
    <>
      <IconButton
        aria-label={t('accountMenu')}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? true : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <Avatar sx={{ width: 34, height: 34, bgcolor: 'primary.main' }}>
          {user.username.slice(0, 1).toUpperCase()}
        </Avatar>
      </IconButton>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <MenuItem disabled sx={{ display: 'block', opacity: '1 !important' }}>
          <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }}>
            {t('signedInAs')}
          </Typography>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {user.email}
          </Typography>
        </MenuItem>
        <Divider />
        <MenuItem
          onClick={() => {
            dispatch(toggleThemeMode());
            close();
          }}
        >
          <ListItemIcon>
            {themeMode === 'dark' ? (
              <LightModeIcon fontSize="small" />
            ) : (
              <DarkModeIcon fontSize="small" />
            )}
          </ListItemIcon>
          {themeMode === 'dark' ? t('theme.light') : t('theme.dark')}
        </MenuItem>
        <MenuItem
          onClick={() => {
            close();
            onSignOut();
          }}
        >
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          {t('signOut')}
        </MenuItem>
      </Menu>
    </>
  );
}
