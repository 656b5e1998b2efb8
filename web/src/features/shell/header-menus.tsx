import type { PickupSession, User } from '@curbside/domain';
import {
  END_SESSION_MIN_ROLE,
  hasMinimumRole,
  isStaffRole,
  ROLE_HOME,
  ROLE_LABEL,
  viewableRoles,
} from '@curbside/domain';
import { Menu, Text } from '@mantine/core';
import { type ReactElement, useState } from 'react';
import { useNavigate } from 'react-router';
import { useLogout } from '../auth/auth.mutations';
import { EndSessionDialog } from '../sessions/end-session-dialog';
import { THEME_LABEL, type ThemePreference, useThemePreference } from '../theme/theme-preference';
import classes from './header.module.css';

/**
 * The header's two menus (issue 57, h57y): Mantine's Menu with the Popover, floating-ui, the
 * focus trap and the portal (the `popover-kit` chunk), and the End Session dialog. Loaded after the
 * screen's first paint (or at the first tap or key on a menu's button, `menus-after-paint.ts`): the
 * buttons are drawn at once by `user-menu.tsx` and `session-pill.tsx`, the same buttons these wrap.
 */

const MENU_THEMES: ThemePreference[] = ['light', 'dark', 'bright'];

const Check = () => (
  <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path d="M4 12.5l5 5L20 6.5" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
  </svg>
);

/** What both menus take: their button (its ref and Mantine's props are set by `Menu.Target`), and their state. */
interface MenuProps {
  target: ReactElement;
  opened: boolean;
  onChange: (opened: boolean) => void;
}

/**
 * The user's menu: Switch View (roles at or below the user's; not for district and super admins),
 * Profile, Settings, the themes and Logout. Items are tall for fingers.
 */
export function UserMenuDropdown({ user, target, opened, onChange }: MenuProps & { user: User }) {
  const navigate = useNavigate();
  const logout = useLogout();
  const [theme, setTheme] = useThemePreference();
  const showSwitchView =
    user.role !== 'district_admin' && user.role !== 'super_admin' && isStaffRole(user.role);

  return (
    <Menu
      position="bottom-end"
      shadow="md"
      width={260}
      withinPortal
      opened={opened}
      onChange={onChange}
      styles={{ item: { minHeight: 48, fontSize: 'var(--mantine-font-size-md)' } }}
    >
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown>
        {showSwitchView && (
          <>
            <Menu.Label>Switch View</Menu.Label>
            {viewableRoles(user.role).map((role) => (
              <Menu.Item key={role} onClick={() => navigate(ROLE_HOME[role])}>
                {ROLE_LABEL[role]}
              </Menu.Item>
            ))}
            <Menu.Divider />
          </>
        )}
        <Menu.Item onClick={() => navigate('/profile')}>Profile</Menu.Item>
        <Menu.Item onClick={() => navigate('/settings')}>Settings</Menu.Item>
        <Menu.Divider />
        <Menu.Label>Theme</Menu.Label>
        {MENU_THEMES.map((option) => (
          <Menu.Item
            key={option}
            onClick={() => setTheme(option)}
            rightSection={theme === option ? <Check /> : null}
            aria-checked={theme === option}
            role="menuitemradio"
          >
            {THEME_LABEL[option]}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item className={classes.danger} disabled={logout.isPending} onClick={() => logout.mutate()}>
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * The running session's menu: its name, the time left and End Session (back queue staff and
 * above), which asks for confirmation first.
 */
export function SessionMenu({
  session,
  user,
  countdown,
  target,
  opened,
  onChange,
}: MenuProps & { session: PickupSession; user: User; countdown: string }) {
  const [confirming, setConfirming] = useState(false);
  const canEnd = hasMinimumRole(user.role, END_SESSION_MIN_ROLE);
  return (
    <>
      <Menu position="bottom" shadow="md" width={280} withinPortal opened={opened} onChange={onChange}>
        <Menu.Target>{target}</Menu.Target>
        <Menu.Dropdown>
          <Menu.Label fz="md" c="var(--mantine-color-text)">
            {session.name}
          </Menu.Label>
          <Menu.Label>Ends in {countdown}</Menu.Label>
          {canEnd ? (
            <Menu.Item className={classes.danger} fz="lg" py="md" onClick={() => setConfirming(true)}>
              End Session
            </Menu.Item>
          ) : (
            <Text px="sm" pb="sm" fz="sm">
              {`${ROLE_LABEL[END_SESSION_MIN_ROLE]} staff and above can end the session.`}
            </Text>
          )}
        </Menu.Dropdown>
      </Menu>
      <EndSessionDialog session={session} opened={confirming} onClose={() => setConfirming(false)} />
    </>
  );
}
