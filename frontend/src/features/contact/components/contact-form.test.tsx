import type { ContactFormValues } from '@agency/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { buildContactValues } from '../../../testing/contact-factory';
import {
  contactServerError,
  contactValidationError,
  pendingContactRequest,
  recordContactRequests,
} from '../../../testing/handlers/contact-handlers';
import { server } from '../../../testing/msw-server';
import { renderApp, renderWithProviders, UNSTYLED } from '../../../testing/render';
import { ContactForm } from './contact-form';

const field = {
  firstName: () => screen.getByLabelText('First Name'),
  lastName: () => screen.getByLabelText('Last Name'),
  email: () => screen.getByLabelText('Email'),
  phone: () => screen.getByLabelText('Phone'),
  service: () => screen.getByLabelText('Service'),
  message: () => screen.getByLabelText('Message'),
  newsletterConsent: () =>
    screen.getByRole('checkbox', {
      name: 'Send me news and offers from the agency by e-mail. I can unsubscribe at any time.',
    }),
};
const submitButton = () => screen.getByRole('button', { name: /send message|sending/i });
// Opening the thank-you page loads its chunk, then renders it: allow for a busy machine.
const PAGE_CHANGE = { timeout: 5_000 };

/**
 * Pastes each value: one change per field rather than one per character keeps
 * the suite fast. Typing key by key is covered by the re-validation test.
 */
async function fill(user: UserEvent, values: Partial<ContactFormValues>) {
  for (const name of ['firstName', 'lastName', 'email', 'phone', 'message'] as const) {
    const value = values[name];
    if (!value) continue;
    await user.click(field[name]());
    await user.paste(value);
  }
  if (values.service) await user.selectOptions(field.service(), values.service);
}

describe('ContactForm', () => {
  it('shows every required-field message under its field after submitting the empty form', async () => {
    const { user } = await renderWithProviders(<ContactForm />, UNSTYLED);

    await user.click(submitButton());

    const expected = {
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Please enter a valid email address',
      service: 'Please select a service',
      message: 'Message must be at least 10 characters long',
    } as const;
    for (const [name, text] of Object.entries(expected)) {
      const input = field[name as keyof typeof expected]();
      await waitFor(() => expect(input).toHaveAccessibleDescription(text));
      expect(input).toHaveAttribute('aria-invalid', 'true');
    }
    expect(field.phone()).toHaveAttribute('aria-invalid', 'false');
  });

  it('stays quiet while typing before the first submit, then re-validates on change', async () => {
    const { user } = await renderWithProviders(<ContactForm />, UNSTYLED);

    await user.type(field.email(), 'not-an-email');
    expect(screen.queryByText('Please enter a valid email address')).not.toBeInTheDocument();

    await user.click(submitButton());
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();

    await user.type(field.firstName(), 'Ada');
    await waitFor(() =>
      expect(screen.queryByText('First name is required')).not.toBeInTheDocument(),
    );
  });

  it('refuses an address the mail rule refuses, such as a dot before the @, and sends nothing', async () => {
    const recorder = recordContactRequests();
    server.use(recorder.handler);
    const { user } = await renderWithProviders(<ContactForm />, UNSTYLED);

    await fill(user, buildContactValues({ email: 'user.@example.com' }));
    await user.click(submitButton());

    await waitFor(() =>
      expect(field.email()).toHaveAccessibleDescription('Please enter a valid email address'),
    );
    expect(field.email()).toHaveAttribute('aria-invalid', 'true');
    expect(recorder.bodies).toEqual([]);
  });

  it('moves focus to the first invalid field in form order', async () => {
    const { user } = await renderWithProviders(<ContactForm />, UNSTYLED);

    await user.type(field.firstName(), 'Ada');
    await user.click(submitButton());

    await waitFor(() => expect(field.lastName()).toHaveFocus());
  });

  it('reads "Sending..." and is disabled while the request is in flight', async () => {
    const pending = pendingContactRequest();
    server.use(pending.handler);
    const { user } = await renderWithProviders(<ContactForm />, UNSTYLED);

    await fill(user, buildContactValues());
    await user.click(submitButton());

    const button = await screen.findByRole('button', { name: 'Sending...' });
    expect(button).toBeDisabled();

    pending.release();
    await waitFor(() => expect(screen.queryByText('Sending...')).not.toBeInTheDocument());
  });

  it('sends the trimmed values and the language, then opens the thank-you page', async () => {
    const recorder = recordContactRequests();
    server.use(recorder.handler);
    const { user, location } = await renderApp('/contact', UNSTYLED);

    await fill(user, buildContactValues({ firstName: '  Ada  ', phone: '+216 12 345 678' }));
    await user.click(submitButton());

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Thank You!' }, PAGE_CHANGE),
    ).toBeInTheDocument();
    expect(location().pathname).toBe('/thank-you');
    expect(recorder.bodies).toEqual([
      {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        phone: '+216 12 345 678',
        service: 'web-design',
        message: 'We need a new website for our bakery.',
        locale: 'en',
        // The news box was left as it starts: unticked.
        newsletterConsent: false,
      },
    ]);
  });

  it('sends the consent when the visitor ticks "send me news" from the keyboard', async () => {
    const recorder = recordContactRequests();
    server.use(recorder.handler);
    const { user } = await renderApp('/contact', UNSTYLED);

    await fill(user, buildContactValues());
    expect(field.newsletterConsent()).not.toBeChecked();
    // From the last text field, the next stop is the box; Space ticks it.
    await user.click(field.message());
    await user.tab();
    expect(field.newsletterConsent()).toHaveFocus();
    await user.keyboard(' ');
    expect(field.newsletterConsent()).toBeChecked();
    await user.click(submitButton());

    await screen.findByRole('heading', { level: 1, name: 'Thank You!' }, PAGE_CHANGE);
    expect(recorder.bodies).toEqual([expect.objectContaining({ newsletterConsent: true })]);
  });

  it("shows the API's reason about the news box under it", async () => {
    server.use(contactValidationError({ newsletterConsent: 'Must be true or false' }));
    const { user } = await renderWithProviders(<ContactForm />, UNSTYLED);

    await fill(user, buildContactValues());
    await user.click(submitButton());

    await waitFor(() =>
      expect(field.newsletterConsent()).toHaveAccessibleDescription('Must be true or false'),
    );
    expect(field.newsletterConsent()).toHaveAttribute('aria-invalid', 'true');
  });

  it('leaves the phone out of the request when it is empty', async () => {
    const recorder = recordContactRequests();
    server.use(recorder.handler);
    const { user } = await renderApp('/contact', UNSTYLED);

    await fill(user, buildContactValues({ phone: '' }));
    await user.click(submitButton());

    await screen.findByRole('heading', { level: 1, name: 'Thank You!' }, PAGE_CHANGE);
    expect(recorder.bodies).toHaveLength(1);
    expect(recorder.bodies[0]).not.toHaveProperty('phone');
  });

  it('shows the error toast and keeps the values when the server fails', async () => {
    server.use(contactServerError);
    const { user } = await renderWithProviders(<ContactForm />, UNSTYLED);
    const values = buildContactValues();

    await fill(user, values);
    await user.click(submitButton());

    const toast = await screen.findByText('Error sending message');
    expect(
      within(toast.parentElement ?? document.body).getByText(
        'Please try again later or contact us directly.',
      ),
    ).toBeInTheDocument();
    expect(field.firstName()).toHaveValue(values.firstName);
    expect(field.lastName()).toHaveValue(values.lastName);
    expect(field.email()).toHaveValue(values.email);
    expect(field.service()).toHaveValue(values.service);
    expect(field.message()).toHaveValue(values.message);
    expect(submitButton()).toHaveTextContent('Send Message');
    expect(submitButton()).toBeEnabled();
  });

  it("shows the API's field messages from a 400 VALIDATION_FAILED answer", async () => {
    server.use(contactValidationError({ email: 'This address cannot receive mail' }));
    const { user } = await renderWithProviders(<ContactForm />, UNSTYLED);

    await fill(user, buildContactValues());
    await user.click(submitButton());

    await waitFor(() =>
      expect(field.email()).toHaveAccessibleDescription('This address cannot receive mail'),
    );
    expect(field.email()).toHaveAttribute('aria-invalid', 'true');
    expect(await screen.findByText('Error sending message')).toBeInTheDocument();
  });

  it('renders validation messages in the current language', async () => {
    const { user } = await renderWithProviders(<ContactForm />, UNSTYLED);
    const { i18n } = await import('../../../app/i18n');

    await user.click(submitButton());
    await screen.findByText('First name is required');
    await act(() => i18n.changeLanguage('fr'));

    expect(await screen.findByText('Le prénom est obligatoire')).toBeInTheDocument();
    expect(screen.getByLabelText('Prénom')).toBeInTheDocument();
    expect(
      screen.getByRole('checkbox', { name: /actualités et les offres de l'agence/ }),
    ).not.toBeChecked();

    await act(() => i18n.changeLanguage('ar'));
    expect(
      await screen.findByRole('checkbox', { name: /أخبار الوكالة وعروضها/ }),
    ).not.toBeChecked();
    await act(() => i18n.changeLanguage('en'));
  });
});
