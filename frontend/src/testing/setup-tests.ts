import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { i18n } from '../app/i18n';
import { server } from './msw-server';
import './layout-stubs';

/**
 * jest-fixed-jsdom hands jsdom Node's own fetch classes, and Node's Request
 * rejects relative URLs a browser resolves against the page. The app always
 * calls the relative `/api`, so resolve it the way a browser would.
 */
const NodeRequest = globalThis.Request;
class DocumentRelativeRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, document.baseURI) : input, init);
  }
}
globalThis.Request = DocumentRelativeRequest;

// findBy and waitFor give up after 1 s by default. npm test runs this
// project beside the backend and worker suites on two cores, where a
// section's first answer has been seen to take longer; a wait that succeeds
// returns as soon as it does, so only a failing test waits the longer time.
configure({ asyncUtilTimeout: 3_000 });

// jsdom does not implement scrolling and logs an error for every call.
window.scrollTo = jest.fn() as typeof window.scrollTo;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));

beforeEach(async () => {
  window.localStorage.clear();
  await i18n.changeLanguage('en');
});

afterEach(() => server.resetHandlers());

afterAll(() => server.close());
