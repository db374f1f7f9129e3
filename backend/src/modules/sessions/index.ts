export { ownSessionRoutes } from './session.routes';
export { createSession, endOtherSessions, findActiveSession, isSessionId } from './session.service';
export { SessionModel } from './session.model';
