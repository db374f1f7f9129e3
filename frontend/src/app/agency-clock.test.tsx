import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import {
  buildAgencySettings,
  buildContact,
  buildEnquiryTrend,
  buildUser,
  keysetPageOf,
} from '../testing/admin-factory';
import { findTable, renderAdmin } from '../testing/admin-render';
import { adminKeysetList, adminList } from '../testing/handlers/admin-handlers';
import { server } from '../testing/msw-server';
import { i18n } from '../testing/i18n';

/** The agency's zone as its settings give it; far from the test machine's own clock. */
function agencyZone(timeZone: string) {
  return http.get('/api/admin/agency-settings', () =>
    HttpResponse.json(buildAgencySettings({ timeZone })),
  );
}

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe("every admin time is on the agency's clock, its zone named", () => {
  it("shows when an enquiry came in on the agency's clock, not the browser's", async () => {
    const instant = '2026-05-04T09:30:00.000Z';
    server.use(
      agencyZone('Asia/Tokyo'),
      adminKeysetList('/contacts', [buildContact({ firstName: 'Sami', createdAt: instant })]),
    );
    await renderAdmin('/admin/contacts');
    const contacts = await findTable('Contacts');
    // 09:30 UTC is 18:30 in Tokyo (GMT+9 all year).
    expect(await within(contacts).findByText('May 4, 2026, 6:30 PM GMT+9')).toBeInTheDocument();
  });

  it('names the zone in the language of the page', async () => {
    server.use(
      agencyZone('America/New_York'),
      adminList('/users', [
        buildUser({ username: 'karim', lastLoginAt: '2026-01-15T17:05:00.000Z' }),
      ]),
    );
    await i18n.changeLanguage('fr');
    await renderAdmin('/admin/users');
    const users = await findTable('Utilisateurs');
    expect(await within(users).findByText('15 janv. 2026, 12:05 UTC−5')).toBeInTheDocument();
  });
});

describe('one numbering per language', () => {
  it('writes the Arabic admin counts with the digits of the rest of the admin, the table pages included', async () => {
    server.use(
      http.get('/api/admin/contacts', () =>
        HttpResponse.json(keysetPageOf([buildContact()], { total: 1952, next: 'next-page' })),
      ),
    );
    await i18n.changeLanguage('ar');
    await renderAdmin('/admin/contacts');
    const main = screen.getByRole('main');
    expect(await within(main).findByText(/1\.952/)).toBeInTheDocument();
    // No Arabic-Indic digit anywhere (the grid's own Arabic would write ١٬٩٥٢).
    expect(main.textContent).not.toMatch(/[\u0660-\u0669\u06f0-\u06f9]/);
  });

  it('writes the figures of the Arabic charts in the same numbering as the rest of the admin', async () => {
    server.use(
      http.get('/api/admin/stats/enquiries', () => HttpResponse.json(buildEnquiryTrend([1952]))),
    );
    await i18n.changeLanguage('ar');
    await renderAdmin('/admin/analytics', { mobile: true });
    const main = screen.getByRole('main');
    expect(await within(main).findByText('1.952')).toBeInTheDocument();
    expect(main.textContent).not.toMatch(/[\u0660-\u0669\u06f0-\u06f9]/);
  });

  it("writes a phone's Arabic list counts in the same numbering", async () => {
    server.use(
      http.get('/api/admin/contacts', () =>
        HttpResponse.json(keysetPageOf([buildContact()], { total: 1952, next: 'next-page' })),
      ),
    );
    await i18n.changeLanguage('ar');
    await renderAdmin('/admin/contacts', { mobile: true });
    const main = screen.getByRole('main');
    expect(await within(main).findByText(/1\.952/)).toBeInTheDocument();
    expect(main.textContent).not.toMatch(/[\u0660-\u0669\u06f0-\u06f9]/);
  });
});
