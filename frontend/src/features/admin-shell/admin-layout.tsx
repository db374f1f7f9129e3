import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { useEffect, useState } from 'react';
import { Link as RouterLink, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { useIsMobile } from '../../components/admin/use-is-mobile';
import { LanguageSelector } from '../../components/language-selector';
import { ScreenOutlet } from '../../components/screen-error-boundary';
import { ADMIN_PATHS } from '../../lib/admin-paths';
import {
  clearAdminSession,
  saveAdminSession,
  sessionEndedBySignOut,
  takeExpiryNotice,
  useAdminSession,
  type AdminSession,
} from '../../lib/admin-session';
import { api } from '../../lib/api';
import { useAppDispatch } from '../../lib/hooks';
import { useNamespace } from '../../lib/translations';
import { useToast } from '../../lib/use-toast';
import { useCurrentUserQuery, useLogoutMutation } from './api/shell-api';
import { MailServerBanner } from './components/mail-server-banner';
import { SectionNav } from './components/section-nav';
import { UserCard } from './components/user-card';
import { UserMenu } from './components/user-menu';
import { SHELL_NAMESPACE } from './shell-namespace';

const SIDEBAR_WIDTH = 256;
const COLLAPSED_WIDTH = 72;
const MAIN_ID = 'admin-main';

/**
 * Every admin section's frame: the session guard, the header and the
 * sidebar (a drawer under 768 px). Sections render in the Outlet.
 */
export function AdminLayout() {
  const session = useAdminSession();
  const { t } = useNamespace(SHELL_NAMESPACE);
  const toast = useToast();
  const location = useLocation();
  // Whether this frame opened on a session (rather than on a bookmarked address, signed out).
  const [openedSignedIn] = useState(() => session !== null);

  // An expired token ended the session (lib/api.ts): say so once, whatever the page.
  useEffect(() => {
    if (!session && takeExpiryNotice()) {
      toast({
        title: t('expiredTitle'),
        description: t('expiredDescription'),
        variant: 'destructive',
      });
    }
  }, [session, t, toast]);

  if (!session) {
    // Signed out on purpose: straight to sign-in, which then opens the dashboard.
    if (openedSignedIn && sessionEndedBySignOut()) {
      return <Navigate to={ADMIN_PATHS.login} replace />;
    }
    // Back to /admin, remembering the page to return to after signing in.
    const here = `${location.pathname}${location.search}`;
    return <Navigate to={`${ADMIN_PATHS.index}?next=${encodeURIComponent(here)}`} replace />;
  }
  return <SignedInLayout session={session} />;
}

/** Keeps the stored session in step: an admin may have changed this user's name or e-mail since sign-in. */
function useFreshSessionUser(session: AdminSession) {
  const { data: me } = useCurrentUserQuery(undefined);
  const { user } = session;
  useEffect(() => {
    if (!me) return;
    const fresh = me.user;
    if (fresh.username !== user.username || fresh.email !== user.email || fresh.id !== user.id) {
      saveAdminSession({ token: session.token, user: fresh });
    }
  }, [me, session.token, user]);
}

function useSignOut(token: string) {
  const { t } = useNamespace(SHELL_NAMESPACE);
  const toast = useToast();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [logout] = useLogoutMutation();
  return () => {
    // Best effort: the session ends here whatever the API answers.
    void logout(token).catch(() => undefined);
    clearAdminSession();
    dispatch(api.util.resetApiState());
    toast({ title: t('loggedOutTitle'), description: t('loggedOutDescription') });
    void navigate(ADMIN_PATHS.index);
  };
}

function SkipToContentLink() {
  const { t } = useNamespace(SHELL_NAMESPACE);
  return (
    <Link
      href={`#${MAIN_ID}`}
      sx={{
        position: 'absolute',
        insetInlineStart: 8,
        top: -48,
        zIndex: (theme) => theme.zIndex.appBar + 1,
        bgcolor: 'background.paper',
        p: 1,
        '&:focus': { top: 8 },
      }}
    >
      {t('skipToContent')}
    </Link>
  );
}

interface SidebarToggleProps {
  mobile: boolean;
  collapsed: boolean;
  drawerOpen: boolean;
  onOpenDrawer: () => void;
  onToggleCollapsed: () => void;
}

/** Opens the drawer on a phone; folds the sidebar to its icons on a wider screen. */
function SidebarToggle({
  mobile,
  collapsed,
  drawerOpen,
  onOpenDrawer,
  onToggleCollapsed,
}: SidebarToggleProps) {
  const { t } = useNamespace(SHELL_NAMESPACE);
  const collapseIcon = useTheme().direction === 'rtl' ? <ChevronRightIcon /> : <ChevronLeftIcon />;
  return (
    <IconButton
      edge="start"
      aria-label={mobile ? t('openMenu') : collapsed ? t('expand') : t('collapse')}
      aria-expanded={mobile ? drawerOpen : !collapsed}
      onClick={() => (mobile ? onOpenDrawer() : onToggleCollapsed())}
    >
      {!mobile && !collapsed ? (
        // Towards the sidebar's edge: it is on the right in Arabic.
        collapseIcon
      ) : (
        <MenuIcon />
      )}
    </IconButton>
  );
}

interface ShellAppBarProps extends SidebarToggleProps {
  user: AdminSession['user'];
  onSignOut: () => void;
}

function ShellAppBar({ user, onSignOut, ...toggle }: ShellAppBarProps) {
  const { t } = useNamespace(SHELL_NAMESPACE);
  return (
    <AppBar
      position="fixed"
      color="default"
      elevation={0}
      sx={{
        zIndex: (theme) => theme.zIndex.drawer + 1,
        borderBottom: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
      }}
    >
      <Toolbar sx={{ gap: 1 }}>
        <SidebarToggle {...toggle} />
        <Typography
          component={RouterLink}
          to={ADMIN_PATHS.dashboard}
          variant="h6"
          sx={{ flexGrow: 1, fontWeight: 800, color: 'inherit', textDecoration: 'none' }}
          noWrap
        >
          {t('brand')}
        </Typography>
        {toggle.mobile ? null : <LanguageSelector />}
        <UserMenu user={user} onSignOut={onSignOut} />
      </Toolbar>
    </AppBar>
  );
}

interface SidebarProps {
  user: AdminSession['user'];
  mobile: boolean;
  compact: boolean;
  onNavigate: () => void;
}

function SidebarContent({ user, mobile, compact, onNavigate }: SidebarProps) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Toolbar />
      <Box sx={{ flexGrow: 1, overflowY: 'auto', pt: 1 }}>
        <SectionNav user={user} compact={compact} onNavigate={onNavigate} />
      </Box>
      {mobile ? (
        <Box sx={{ px: 2, pb: 1 }}>
          <LanguageSelector fullWidth />
        </Box>
      ) : null}
      <Divider />
      <UserCard user={user} compact={compact} />
    </Box>
  );
}

interface ShellDrawerProps {
  user: AdminSession['user'];
  mobile: boolean;
  collapsed: boolean;
  drawerOpen: boolean;
  onCloseDrawer: () => void;
}

/** A temporary drawer on a phone, a permanent (foldable) sidebar on a wider screen. */
function ShellDrawer({ user, mobile, collapsed, drawerOpen, onCloseDrawer }: ShellDrawerProps) {
  const compact = !mobile && collapsed;
  const width = compact ? COLLAPSED_WIDTH : SIDEBAR_WIDTH;
  const sidebar = (
    <SidebarContent user={user} mobile={mobile} compact={compact} onNavigate={onCloseDrawer} />
  );
  return mobile ? (
    <Drawer
      variant="temporary"
      open={drawerOpen}
      onClose={onCloseDrawer}
      ModalProps={{ keepMounted: false }}
      slotProps={{ paper: { sx: { width: SIDEBAR_WIDTH } } }}
    >
      {sidebar}
    </Drawer>
  ) : (
    <Drawer
      variant="permanent"
      sx={{ width, flexShrink: 0, transition: 'width 150ms' }}
      slotProps={{ paper: { sx: { width, overflowX: 'hidden', transition: 'width 150ms' } } }}
    >
      {sidebar}
    </Drawer>
  );
}

function MainContent() {
  return (
    <Box
      component="main"
      id={MAIN_ID}
      tabIndex={-1}
      sx={{ flexGrow: 1, minWidth: 0, p: { xs: 2, sm: 3 }, outline: 'none' }}
    >
      <Toolbar />
      <MailServerBanner />
      <ScreenOutlet />
    </Box>
  );
}

function SignedInLayout({ session }: { session: AdminSession }) {
  const mobile = useIsMobile();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [collapsed, setCollapsed] = useState(false);
  useFreshSessionUser(session);
  const signOut = useSignOut(session.token);
  const { user } = session;

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      <SkipToContentLink />
      <ShellAppBar
        user={user}
        onSignOut={signOut}
        mobile={mobile}
        collapsed={collapsed}
        drawerOpen={drawerOpen}
        onOpenDrawer={() => setDrawerOpen(true)}
        onToggleCollapsed={() => setCollapsed((value) => !value)}
      />
      <ShellDrawer
        user={user}
        mobile={mobile}
        collapsed={collapsed}
        drawerOpen={drawerOpen}
        onCloseDrawer={() => setDrawerOpen(false)}
      />
      <MainContent />
    </Box>
  );
}
