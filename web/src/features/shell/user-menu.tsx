import { isStaffRole, ROLE_LABEL, type User } from '@curbside/domain';
import { Avatar, Box, Group, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { type ComponentPropsWithoutRef, forwardRef } from 'react';
import classes from './header.module.css';
import { useMenuAfterPaint } from './menus-after-paint';

/** Role label for the header; parents are not a ranked role. */
export const roleLabelOf = (role: User['role']) => (isStaffRole(role) ? ROLE_LABEL[role] : 'Parent');

const Person = () => (
  <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <circle cx="12" cy="8" r="4" fill="currentColor" />
    <path d="M4 21c0-4.4 3.6-7 8-7s8 2.6 8 7z" fill="currentColor" />
  </svg>
);

/** The menu's button: the user's avatar, name and role. */
const UserButton = forwardRef<HTMLButtonElement, { user: User } & ComponentPropsWithoutRef<'button'>>(
  function UserButton({ user, ...props }, ref) {
    return (
      <UnstyledButton
        ref={ref}
        px="xs"
        mih={50}
        style={{ borderRadius: 'var(--mantine-radius-md)' }}
        {...props}
      >
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
    );
  },
);

/**
 * The user's name and role, opening the user's menu (`header-menus.tsx`: Switch View, Profile,
 * Settings, the themes and Logout), loaded after the screen's first paint (h57y,
 * `menus-after-paint.ts`): until then this same button, drawn at once.
 */
export function UserMenu({ user }: { user: User }) {
  const { menus, menu, buttonProps, targetProps } = useMenuAfterPaint();
  if (!menus) return <UserButton user={user} {...buttonProps} />;
  return (
    <menus.UserMenuDropdown user={user} {...menu} target={<UserButton user={user} {...targetProps} />} />
  );
}
