import CloseIcon from '@mui/icons-material/Close';
import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import useScrollTrigger from '@mui/material/useScrollTrigger';
import { useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { useAnchorNavigation } from '../lib/scroll';
import { LanguageSelector } from './language-selector';
import { PRIMARY_LINKS, type NavigationLink } from './navigation-links';

/** Transparent over the hero, opaque once the page has scrolled past this (spec: 20 px). */
const OPAQUE_AFTER_PX = 20;

function isActive(link: NavigationLink, pathname: string, hash: string): boolean {
  if (link.kind === 'anchor') return pathname === '/' && hash === `#${link.anchorId}`;
  return link.to === '/' ? pathname === '/' && !hash : pathname.startsWith(link.to);
}

export function NavigationBar() {
  const { t } = useTranslation();
  const { pathname, hash } = useLocation();
  const goToAnchor = useAnchorNavigation();
  const [menuOpen, setMenuOpen] = useState(false);
  const opaque = useScrollTrigger({ disableHysteresis: true, threshold: OPAQUE_AFTER_PX });

  const onLogoClick = (event: MouseEvent<HTMLAnchorElement>) => {
    // Already home: the router would do nothing, so bring the visitor back to the top.
    if (pathname === '/' && !hash) {
      event.preventDefault();
      window.scrollTo({ top: 0, behavior: 'smooth' });
    }
  };

  const onAnchor = (anchorId: string) => {
    setMenuOpen(false);
    goToAnchor(anchorId);
  };

  const renderDesktopLink = (link: NavigationLink) => {
    const active = isActive(link, pathname, hash);
    const sx = { color: active ? 'primary.main' : 'text.primary', fontWeight: active ? 700 : 500 };
    return link.kind === 'route' ? (
      <Button
        key={link.labelKey}
        component={RouterLink}
        to={link.to}
        sx={sx}
        aria-current={active ? 'page' : undefined}
      >
        {t(link.labelKey)}
      </Button>
    ) : (
      <Button
        key={link.labelKey}
        href={`/#${link.anchorId}`}
        sx={sx}
        onClick={(event) => {
          event.preventDefault();
          onAnchor(link.anchorId);
        }}
      >
        {t(link.labelKey)}
      </Button>
    );
  };

  return (
    <AppBar
      position="fixed"
      elevation={opaque ? 4 : 0}
      color="transparent"
      sx={{
        bgcolor: opaque ? 'background.paper' : 'transparent',
        backdropFilter: opaque ? 'saturate(180%) blur(8px)' : 'none',
        transition: 'background-color 200ms ease, box-shadow 200ms ease',
      }}
    >
      <Toolbar component="nav" aria-label={t('nav.mainNavigation')} sx={{ gap: 2 }}>
        <Box
          component={RouterLink}
          to="/"
          onClick={onLogoClick}
          aria-label={t('nav.goHome')}
          sx={{
            fontWeight: 800,
            fontSize: '1.25rem',
            color: 'primary.main',
            textDecoration: 'none',
            flexGrow: 1,
          }}
        >
          {t('brand.name')}
        </Box>

        <Stack direction="row" spacing={0.5} sx={{ display: { xs: 'none', md: 'flex' } }}>
          {PRIMARY_LINKS.map(renderDesktopLink)}
        </Stack>

        <Box sx={{ display: { xs: 'none', md: 'block' } }}>
          <LanguageSelector />
        </Box>

        <Button
          variant="contained"
          href="/#contact"
          onClick={(event) => {
            event.preventDefault();
            onAnchor('contact');
          }}
          sx={{ display: { xs: 'none', md: 'inline-flex' } }}
        >
          {t('nav.getInTouch')}
        </Button>

        <IconButton
          edge="end"
          aria-label={t('nav.openMenu')}
          aria-expanded={menuOpen}
          aria-controls="navigation-menu"
          onClick={() => setMenuOpen(true)}
          sx={{ display: { md: 'none' } }}
        >
          <MenuIcon />
        </IconButton>
      </Toolbar>

      <Drawer anchor="right" open={menuOpen} onClose={() => setMenuOpen(false)}>
        <Box id="navigation-menu" sx={{ width: 280, p: 2 }}>
          <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
            <IconButton aria-label={t('nav.closeMenu')} onClick={() => setMenuOpen(false)}>
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
                    selected={isActive(link, pathname, hash)}
                    onClick={() => setMenuOpen(false)}
                  >
                    <ListItemText primary={t(link.labelKey)} />
                  </ListItemButton>
                ) : (
                  <ListItemButton onClick={() => onAnchor(link.anchorId)}>
                    <ListItemText primary={t(link.labelKey)} />
                  </ListItemButton>
                )}
              </ListItem>
            ))}
          </List>
          <Divider sx={{ my: 2 }} />
          <LanguageSelector fullWidth />
          <Button variant="contained" fullWidth sx={{ mt: 2 }} onClick={() => onAnchor('contact')}>
            {t('nav.getInTouch')}
          </Button>
        </Box>
      </Drawer>
    </AppBar>
  );
}
