import { setupServer } from 'msw/node';
import { adminHandlers } from './handlers/admin-handlers';
import { contactHandlers } from './handlers/contact-handlers';
import { newsletterHandlers } from './handlers/newsletter-handlers';

/** Default handlers of every feature; tests override per case with `server.use(...)`. */
export const server = setupServer(...contactHandlers, ...newsletterHandlers, ...adminHandlers);
