import { Navigate } from 'react-router-dom';
import { hasAdminToken } from './admin-session';

/** /admin: straight to the dashboard with a stored token, otherwise to sign-in (spec 2). */
export function AdminIndexRedirect() {
  return <Navigate to={hasAdminToken() ? '/admin/dashboard' : '/admin/login'} replace />;
}
