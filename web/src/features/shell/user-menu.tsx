import { isStaffRole, ROLE_HOME, ROLE_LABEL, type User, viewableRoles } from '@curbside/domain';
import { Avatar, Box, Group, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useNavigate } from 'react-router';
import { useLogout } from '../auth/auth.mutations';
import { THEME_LABEL, type ThemePreference, useThemePreference } from '../theme/theme-preference';
import classes from './header.module.css';

const MENU_THEMES: ThemePreference[] = ['light', 'dark', 'bright'];

/** Role label for the header; parents are not a ranked role. */
export const roleLabelOf = (role: User['role']) => (isStaffRole(role) ? ROLE_LABEL[role] : 'Parent');

const Person = () => (
  <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <circle cx="12" cy="8" r="4" fill="currentColor" />
    <path d="M4 21c0-4.4 3.6-7 8-7s8 2.6 8 7z" fill="currentColor" />
  </svg>
);

const Check = () => (
  <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path d="M4 12.5l5 5L20 6.5" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
  </svg>
);

/**
 * The user's name and role, opening a menu: Switch View (roles at or below
 * the user's; not for district and super admins), Profile, Settings, the
 * themes and Logout. Items are tall for fingers.
 */
export function UserMenu({ user }: { user: User }) {
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
      styles={{ item: { minHeight: 48, fontSize: 'var(--mantine-font-size-md)' } }}
    >
      <Menu.Target>
        <UnstyledButton px="xs" mih={50} style={{ borderRadius: 'var(--mantine-radius-md)' }}>
          <Group gap="xs" wrap="nowrap">
            <Avatar color="blue.9" variant="filled" radius="xl" size={40}>
              <Person />
            </Avatar>
            <Box miw={0} className={classes.userName}>
              <Text fw={700} lh={1.2} truncate>
                {/* Named "Account menu for {name}" by what it shows (WCAG 2.5.3, label in name). */}
                <VisuallyHidden>Account menu for </VisuallyHidden>
                {user.name}
              </Text>
              <Text fz="sm" c="dimmed" lh={1.2} truncate>
                {roleLabelOf(user.role)}
              </Text>
            </Box>
          </Group>
        </UnstyledButton>
      </Menu.Target>
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
