import { Anchor, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import classes from './header.module.css';

/** Links (the school's live bus map; programs' lists, issue 52), with the staff member's own sign-in, and the copyright line. */
export function Footer({ programs = false }: { programs?: boolean }) {
  return (
    <footer className={classes.footer}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Group gap="md">
          <Anchor component={Link} to="/bus-map" fw={600}>
            Live Bus Map
          </Anchor>
          {programs && (
            <Anchor component={Link} to="/programs" fw={600}>
              Programs
            </Anchor>
          )}
        </Group>
        <Text c="dimmed" fz="sm">
          © {new Date().getFullYear()} Curbside. All rights reserved.
        </Text>
      </Group>
    </footer>
  );
}
