import { Navigate, useSearchParams } from 'react-router-dom';
import { hasAdminToken, safeAdminReturnPath } from '../../lib/admin-session';

/**
 * /admin: straight to the dashboard with a stored token, otherwise to
 * sign-in, passing on the page to come back to after signing in.
 */
export function AdminIndexRedirect() {
  const [searchParams] = useSearchParams();
  if (hasAdminToken()) return <Navigate to="/admin/dashboard" replace />;
  const next = safeAdminReturnPath(searchParams.get('next'));
  const login = next ? `/admin/login?next=${encodeURIComponent(next)}` : '/admin/login';
  return <Navigate to={login} replace />;
}
