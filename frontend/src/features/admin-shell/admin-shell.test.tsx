import { screen, waitFor, within } from '@testing-library/react';
import {
  findElement,
  renderAdmin,
  renderAdminSignedOut,
  SECTION_LOAD,
} from '../../testing/admin-render';
import { adminFailure } from '../../testing/handlers/admin-handlers';
import { server } from '../../testing/msw-server';
import { signInAs } from '../../testing/admin-session';

const SECTIONS = [
  'Dashboard',
  'Mail Manager',
  'Media library',
  'Audience',
  'People',
  'User Management',
  'Contacts',
  'Clients',
  'Leads',
  'Analytics',
  'Settings',
];

const sectionLinks = async () => {
  const nav = await findElement('header ~ * nav, nav');
  return within(nav)
    .getAllByRole('link')
    .map((link) => link.textContent);
};

describe('Admin frame', () => {
  it("offers an admin the spec's eight sections with the media library and the audience, and highlights the admin badge", async () => {
    await renderAdmin('/admin/settings');

    expect(await sectionLinks()).toEqual(SECTIONS);
    const card = screen.getByLabelText('admin-user, Admin');
    expect(within(card).getByText('Admin').closest('.MuiChip-root')).toHaveClass('MuiChip-filled');
  });

  it('offers a viewer only the sections its role may open, and refuses the others by address', async () => {
    await renderAdmin('/admin/users', { role: 'viewer' });

    expect(await sectionLinks()).toEqual(
      SECTIONS.filter((name) => name !== 'User Management' && name !== 'People'),
    );
    const badge = within(screen.getByLabelText('viewer-user, Viewer')).getByText('Viewer');
    expect(badge.closest('.MuiChip-root')).toHaveClass('MuiChip-outlined');
    expect(screen.getByText('This section is not open to your role')).toBeInTheDocument();
  });

  it('gives every section its own address', async () => {
    const { user, location } = await renderAdmin('/admin/settings', { role: 'editor' });

    const nav = await findElement('nav[aria-label="Admin sections"]');
    await user.click(within(nav).getByRole('link', { name: 'Leads' }));

    await waitFor(() => expect(location().pathname).toBe('/admin/leads'));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Leads' }, SECTION_LOAD),
    ).toBeInTheDocument();
  });

  it('shows the e-mail in the header menu, saves the theme as dark or light, and signs out', async () => {
    const { user, location } = await renderAdmin('/admin/settings', { role: 'manager' });

    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('manager@agency.test')).toBeInTheDocument();
    await user.click(within(menu).getByRole('menuitem', { name: 'Dark mode' }));
    await waitFor(() => expect(window.localStorage.getItem('theme')).toBe('dark'));

    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Light mode' }));
    await waitFor(() => expect(window.localStorage.getItem('theme')).toBe('light'));

    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign Out' }));

    expect(await screen.findByText('Logged out')).toBeInTheDocument();
    expect(screen.getByText('You have been successfully logged out')).toBeInTheDocument();
    await waitFor(() => expect(location().pathname).toBe('/admin/login'));
    // Signed out on purpose: the next sign-in starts at the dashboard, not back here.
    expect(location().search).toBe('');
    expect(window.localStorage.getItem('admin_token')).toBeNull();
    expect(window.localStorage.getItem('admin_user')).toBeNull();
  });

  it('sends a visitor without a session to sign in, and back to the page afterwards', async () => {
    const { user, location } = await renderAdminSignedOut('/admin/settings?from=bookmark');

    await waitFor(() => expect(location().pathname).toBe('/admin/login'));
    await user.type(await screen.findByLabelText(/Username or email/, {}, SECTION_LOAD), 'admin');
    await user.type(screen.getByLabelText(/^Password/), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    await waitFor(() =>
      expect(`${location().pathname}${location().search}`).toBe('/admin/settings?from=bookmark'),
    );
  });

  it('ends an expired session once, with one notice, and returns to the page after sign-in', async () => {
    // The dashboard asks who is signed in, its figures and the latest contacts at once.
    server.use(
      adminFailure('get', '/me', 401),
      adminFailure('get', '/stats', 401),
      adminFailure('get', '/contacts', 401),
    );
    signInAs('admin');
    const { user, location } = await renderAdminSignedOut('/admin/dashboard');

    expect(await screen.findByText('Session expired', {}, SECTION_LOAD)).toBeInTheDocument();
    await waitFor(() => expect(location().pathname).toBe('/admin/login'));
    expect(location().search).toBe(`?next=${encodeURIComponent('/admin/dashboard')}`);
    expect(screen.getAllByText('Session expired')).toHaveLength(1);
    expect(window.localStorage.getItem('admin_token')).toBeNull();

    server.resetHandlers();
    await user.type(await screen.findByLabelText(/Username or email/, {}, SECTION_LOAD), 'admin');
    await user.type(screen.getByLabelText(/^Password/), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(location().pathname).toBe('/admin/dashboard'));
  });

  it('puts the sections in a drawer on a phone, closed once a section is chosen', async () => {
    const { user, location } = await renderAdmin('/admin/settings', { mobile: true });
    expect(document.querySelector('nav[aria-label="Admin sections"]')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Open the menu' }));
    const nav = await findElement('nav[aria-label="Admin sections"]');
    expect(within(nav).getAllByRole('link')).toHaveLength(SECTIONS.length);
    await user.click(within(nav).getByRole('link', { name: 'Dashboard' }));

    await waitFor(() => expect(location().pathname).toBe('/admin/dashboard'));
    await waitFor(() =>
      expect(document.querySelector('nav[aria-label="Admin sections"]')).toBeNull(),
    );
  });

  it('speaks Arabic, right to left', async () => {
    const { user } = await renderAdmin('/admin/settings');

    await user.selectOptions(screen.getByLabelText('Language'), 'ar');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'الإعدادات' }, SECTION_LOAD),
    ).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(await sectionLinks()).toContain('مدير البريد');
    // The sidebar is on the right: collapsing it points right.
    const collapse = screen.getByRole('button', { name: 'طي الشريط الجانبي' });
    expect(collapse.querySelector('[data-testid="ChevronRightIcon"]')).not.toBeNull();
  });
});
