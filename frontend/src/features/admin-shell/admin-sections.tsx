import { PEOPLE_PERMISSION, type Permission } from '@agency/contracts';
import BarChartIcon from '@mui/icons-material/BarChart';
import BusinessIcon from '@mui/icons-material/Business';
import ContactMailIcon from '@mui/icons-material/ContactMail';
import DashboardIcon from '@mui/icons-material/Dashboard';
import EmailIcon from '@mui/icons-material/Email';
import GroupsIcon from '@mui/icons-material/Groups';
import PeopleIcon from '@mui/icons-material/People';
import PhotoLibraryIcon from '@mui/icons-material/PhotoLibrary';
import RecentActorsIcon from '@mui/icons-material/RecentActors';
import SettingsIcon from '@mui/icons-material/Settings';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import type { ReactElement } from 'react';
import { ADMIN_PATHS, type AdminSection } from '../../lib/admin-paths';

export interface AdminSectionLink {
  section: AdminSection;
  path: string;
  icon: ReactElement;
  /** Sections a role cannot read are not offered to it; none means everyone. */
  permission?: Permission;
}

/** The sidebar's sections: the spec's eight, in its order, with the media library and the audience after the mail. */
export const ADMIN_SECTION_LINKS: readonly AdminSectionLink[] = [
  {
    section: 'dashboard',
    path: ADMIN_PATHS.dashboard,
    icon: <DashboardIcon />,
    permission: 'stats:read',
  },
  {
    section: 'campaigns',
    path: ADMIN_PATHS.campaigns,
    icon: <EmailIcon />,
    permission: 'campaigns:read',
  },
  {
    section: 'media',
    path: ADMIN_PATHS.media,
    icon: <PhotoLibraryIcon />,
    permission: 'campaigns:read',
  },
  {
    section: 'audience',
    path: ADMIN_PATHS.audience,
    icon: <GroupsIcon />,
    permission: 'lists:read',
  },
  {
    section: 'people',
    path: ADMIN_PATHS.people,
    icon: <RecentActorsIcon />,
    permission: PEOPLE_PERMISSION,
  },
  { section: 'users', path: ADMIN_PATHS.users, icon: <PeopleIcon />, permission: 'users:read' },
  {
    section: 'contacts',
    path: ADMIN_PATHS.contacts,
    icon: <ContactMailIcon />,
    permission: 'contacts:read',
  },
  {
    section: 'clients',
    path: ADMIN_PATHS.clients,
    icon: <BusinessIcon />,
    permission: 'clients:read',
  },
  { section: 'leads', path: ADMIN_PATHS.leads, icon: <TrendingUpIcon />, permission: 'leads:read' },
  {
    section: 'analytics',
    path: ADMIN_PATHS.analytics,
    icon: <BarChartIcon />,
    permission: 'stats:read',
  },
  { section: 'settings', path: ADMIN_PATHS.settings, icon: <SettingsIcon /> },
];
