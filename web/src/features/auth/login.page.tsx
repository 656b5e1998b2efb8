import { Navigate } from 'react-router';
import { useMe } from './auth.queries';
import { LoginScreen } from './login-screen';

/** `/login`: the login screen; a signed-in user goes on to `/`. */
export function LoginPage() {
  const { user, isLoading } = useMe();
  if (isLoading) return null;
  if (user) return <Navigate to="/" replace />;
  return <LoginScreen />;
}
