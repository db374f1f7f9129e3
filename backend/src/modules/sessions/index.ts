export { ownSessionRoutes } from './session.routes';
export {
  createSession,
  deviceOf,
  endOtherSessions,
  findActiveSession,
  LAST_SEEN_PRECISION_MS,
} from './session.service';
export { SessionModel } from './session.model';
