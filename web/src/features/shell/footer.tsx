import { Anchor, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import classes from './header.module.css';

/** A link (the school's live bus map, with the staff member's own sign-in) and the copyright line. */
export function Footer() {
  return (
    <footer className={classes.footer}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Anchor component={Link} to="/bus-map" fw={600}>
          Live Bus Map
        </Anchor>
        <Text c="dimmed" fz="sm">
          © {new Date().getFullYear()} Curbside. All rights reserved.
        </Text>
      </Group>
    </footer>
  );
}
