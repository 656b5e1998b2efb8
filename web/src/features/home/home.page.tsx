import { homeOf } from '@curbside/domain';
import { Navigate } from 'react-router';
import { useMe } from '../auth/auth.queries';
import { LoginScreen } from '../auth/login-screen';

/** `/`: a signed-in user goes to their home page; everyone else sees the login screen. */
export function HomePage() {
  const { user, isLoading } = useMe();
  if (isLoading) return null;
  if (user) return <Navigate to={homeOf(user.role)} replace />;
  return <LoginScreen />;
}
