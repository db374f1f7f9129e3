export { ownSessionRoutes } from './session.routes';
export { createSession, findActiveSession, isSessionId } from './session.service';
export { SessionModel } from './session.model';
