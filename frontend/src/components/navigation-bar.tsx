import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import useScrollTrigger from '@mui/material/useScrollTrigger';
import { lazy, Suspense, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useHref, useLocation } from 'react-router-dom';
import { scrollToTop, useAnchorNavigation } from '../lib/scroll';
import { LanguageSelector } from './language-selector';
import { isActiveLink, PRIMARY_LINKS, SIDE_MENU_ID, type NavigationLink } from './navigation-links';

/** Transparent over the hero, opaque once the page has scrolled past this many pixels. */
export const OPAQUE_AFTER_PX = 20;

// Only narrow screens open the side menu, and only on demand: its code loads then.
const SideMenu = lazy(() => import('./side-menu').then((module) => ({ default: module.SideMenu })));

/** The brand, linking home; already home, it brings the visitor back to the top. */
function BrandLink() {
  const { t } = useTranslation();
  const { pathname, hash } = useLocation();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    // Already home: the router would do nothing, so bring the visitor back to the top.
    if (pathname === '/' && !hash) {
      event.preventDefault();
      scrollToTop();
    }
  };
  return (
    <Box
      component={RouterLink}
      to="/"
      onClick={onClick}
      // The name starts with the brand the link shows (WCAG 2.5.3, label in name).
      aria-label={t('nav.goHome', { brand: t('brand.name') })}
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
  );
}

interface DesktopLinkProps {
  link: NavigationLink;
  /** The home page in this page's language, which the anchors belong to. */
  homeHref: string;
  onAnchor: (anchorId: string) => void;
}

/** One of the wide screen's links: a page, or a section of the home page. */
function DesktopLink({ link, homeHref, onAnchor }: DesktopLinkProps) {
  const { t } = useTranslation();
  const { pathname, hash } = useLocation();
  const active = isActiveLink(link, pathname, hash);
  const sx = { color: active ? 'primary.main' : 'text.primary', fontWeight: active ? 700 : 500 };
  return link.kind === 'route' ? (
    <Button component={RouterLink} to={link.to} sx={sx} aria-current={active ? 'page' : undefined}>
      {t(link.labelKey)}
    </Button>
  ) : (
    <Button
      href={`${homeHref}#${link.anchorId}`}
      sx={sx}
      onClick={(event) => {
        event.preventDefault();
        onAnchor(link.anchorId);
      }}
    >
      {t(link.labelKey)}
    </Button>
  );
}

/** The narrow screen's side menu: open or not, and loaded from its first opening on. */
function useSideMenu() {
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so closing can play its slide-out.
  const [loaded, setLoaded] = useState(false);
  return {
    open,
    loaded,
    show: () => {
      setLoaded(true);
      setOpen(true);
    },
    close: () => setOpen(false),
  };
}

export function NavigationBar() {
  const { t } = useTranslation();
  // The home page in this page's language (`/`, `/fr/`...), which the anchors belong to.
  const homeHref = useHref('/');
  const goToAnchor = useAnchorNavigation();
  const menu = useSideMenu();
  const opaque = useScrollTrigger({ disableHysteresis: true, threshold: OPAQUE_AFTER_PX });

  const onAnchor = (anchorId: string) => {
    menu.close();
    goToAnchor(anchorId);
  };

  return (
    <AppBar
      position="fixed"
      elevation={opaque ? 4 : 0}
      color="transparent"
      data-opaque={opaque}
      sx={{
        bgcolor: opaque ? 'background.paper' : 'transparent',
        backdropFilter: opaque ? 'saturate(180%) blur(8px)' : 'none',
        transition: 'background-color 200ms ease, box-shadow 200ms ease',
      }}
    >
      <Toolbar component="nav" aria-label={t('nav.mainNavigation')} sx={{ gap: 2 }}>
        <BrandLink />

        <Stack direction="row" spacing={0.5} sx={{ display: { xs: 'none', md: 'flex' } }}>
          {PRIMARY_LINKS.map((link) => (
            <DesktopLink key={link.labelKey} link={link} homeHref={homeHref} onAnchor={onAnchor} />
          ))}
        </Stack>

        <Box sx={{ display: { xs: 'none', md: 'block' } }}>
          <LanguageSelector localizedAddresses />
        </Box>

        <Button
          variant="contained"
          href={`${homeHref}#contact`}
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
          aria-expanded={menu.open}
          aria-controls={menu.open ? SIDE_MENU_ID : undefined}
          onClick={menu.show}
          sx={{ display: { md: 'none' } }}
        >
          <MenuIcon />
        </IconButton>
      </Toolbar>

      {menu.loaded ? (
        <Suspense fallback={null}>
          <SideMenu open={menu.open} onClose={menu.close} onAnchor={onAnchor} />
        </Suspense>
      ) : null}
    </AppBar>
  );
}
