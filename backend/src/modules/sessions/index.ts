export { ownSessionRoutes } from './session.routes';
export { createSession, endOtherSessions, findActiveSession } from './session.service';
export { SessionModel } from './session.model';
