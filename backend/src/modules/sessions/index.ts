export { ownSessionRoutes } from './session.routes';
export { createSession, findActiveSession } from './session.service';
export { SessionModel } from './session.model';
