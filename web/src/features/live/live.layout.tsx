import { Outlet } from 'react-router';
import { LiveProvider } from './live';

/**
 * The screens under it follow live events: one live connection for all of them (it reconnects
 * when the signed-in user changes, so the server sees the new session at `$connect`). A layout
 * route of the staff audience and of the parent dashboard (web/src/audiences).
 */
export function LiveLayout() {
  return (
    <LiveProvider>
      <Outlet />
    </LiveProvider>
  );
}

/**
 * The parent dashboard's (issue 57): its socket opens after the first paint and its first open
 * reads nothing again, so a phone reads each of the page's lists once from its load to live; a
 * connection back after a drop reads them all again.
 */
export function ParentLiveLayout() {
  return (
    <LiveProvider readAgainOnOpen={false} openAfterFirstReads>
      <Outlet />
    </LiveProvider>
  );
}
