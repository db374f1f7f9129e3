import type { ApiErrorBody, CreateContactResponse } from '@agency/contracts';
import { http, HttpResponse } from 'msw';

export const CONTACT_URL = '/api/contact';

/** The happy path: the API stores the enquiry and answers 201 with its id. */
export const contactHandlers = [
  http.post(CONTACT_URL, () =>
    HttpResponse.json<CreateContactResponse>({ id: 'contact-1' }, { status: 201 }),
  ),
];

/** Records every body POSTed to /api/contact, then answers like the happy path. */
export function recordContactRequests() {
  const bodies: unknown[] = [];
  const handler = http.post(CONTACT_URL, async ({ request }) => {
    bodies.push(await request.json());
    return HttpResponse.json<CreateContactResponse>({ id: 'contact-1' }, { status: 201 });
  });
  return { handler, bodies };
}

/** Holds the request open until the test calls `release()`, to observe the sending state. */
export function pendingContactRequest() {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const handler = http.post(CONTACT_URL, async () => {
    await gate;
    return HttpResponse.json<CreateContactResponse>({ id: 'contact-1' }, { status: 201 });
  });
  return { handler, release: () => release() };
}

export const contactServerError = http.post(CONTACT_URL, () =>
  HttpResponse.json<ApiErrorBody>(
    { error: { code: 'INTERNAL', message: 'Internal server error' } },
    { status: 500 },
  ),
);

export function contactValidationError(fields: Record<string, string>) {
  return http.post(CONTACT_URL, () =>
    HttpResponse.json<ApiErrorBody>(
      { error: { code: 'VALIDATION_FAILED', message: 'Validation failed', fields } },
      { status: 400 },
    ),
  );
}
