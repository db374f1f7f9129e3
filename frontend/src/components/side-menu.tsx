import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useHref, useLocation } from 'react-router-dom';
import { LanguageSelector } from './language-selector';
import { isActiveLink, PRIMARY_LINKS, SIDE_MENU_ID } from './navigation-links';

export interface SideMenuProps {
  open: boolean;
  onClose: () => void;
  /** Closes the menu, then goes to an in-page anchor. */
  onAnchor: (anchorId: string) => void;
}

/**
 * The slide-in menu of narrow screens: the five links, the language selector
 * and the contact button. It closes on its backdrop, Escape or any link.
 */
export function SideMenu({ open, onClose, onAnchor }: SideMenuProps) {
  const { t } = useTranslation();
  const { pathname, hash } = useLocation();
  // The home page in this page's language (`/`, `/fr/`...), which the anchors belong to.
  const homeHref = useHref('/');

  return (
    <Drawer anchor="right" open={open} onClose={onClose}>
      <Box
        id={SIDE_MENU_ID}
        component="nav"
        aria-label={t('nav.mainNavigation')}
        sx={{ width: 280, p: 2 }}
      >
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <IconButton aria-label={t('nav.closeMenu')} onClick={onClose}>
            <CloseIcon />
          </IconButton>
        </Box>
        <List>
          {PRIMARY_LINKS.map((link) => (
            <ListItem key={link.labelKey} disablePadding>
              {link.kind === 'route' ? (
                <ListItemButton
                  component={RouterLink}
                  to={link.to}
                  selected={isActiveLink(link, pathname, hash)}
                  onClick={onClose}
                >
                  <ListItemText primary={t(link.labelKey)} />
                </ListItemButton>
              ) : (
                <ListItemButton
                  component="a"
                  href={`${homeHref}#${link.anchorId}`}
                  onClick={(event) => {
                    event.preventDefault();
                    onAnchor(link.anchorId);
                  }}
                >
                  <ListItemText primary={t(link.labelKey)} />
                </ListItemButton>
              )}
            </ListItem>
          ))}
        </List>
        <Divider sx={{ my: 2 }} />
        <LanguageSelector fullWidth localizedAddresses />
        <Button variant="contained" fullWidth sx={{ mt: 2 }} onClick={() => onAnchor('contact')}>
          {t('nav.getInTouch')}
        </Button>
      </Box>
    </Drawer>
  );
}
