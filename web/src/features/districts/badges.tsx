import { Badge, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { MUTED_TEXT } from '../../lib/theme';

/** A created date as `Nov 24, 2026`. */
export const createdOn = (createdAt: string) =>
  new Date(createdAt).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

/** Badges keep their width beside a long name (the name wraps instead). */
const NO_SHRINK = { flexShrink: 0 } as const;

/** Sandbox or Live (shades that keep white text at AA contrast in every theme). */
export function ModeBadge({ sandbox }: { sandbox: boolean }) {
  return (
    <Badge color={sandbox ? 'orange.8' : 'green.9'} variant="filled" size="lg" style={NO_SHRINK}>
      {sandbox ? 'Sandbox' : 'Live'}
    </Badge>
  );
}

/** Active or Inactive. */
export function ActiveBadge({ active }: { active: boolean }) {
  return (
    <Badge color={active ? 'green.9' : 'gray.7'} variant="filled" size="lg" style={NO_SHRINK}>
      {active ? 'Active' : 'Inactive'}
    </Badge>
  );
}

/** A list's empty state: a heading and a hint. */
export function EmptyState({ title, hint }: { title: string; hint: string }) {
  return (
    <Stack align="center" gap="xs" ta="center" py="xl">
      <Text fz="xl" fw={800} role="status">
        {title}
      </Text>
      <Text c={MUTED_TEXT}>{hint}</Text>
    </Stack>
  );
}

/** A label and its value on one line (a school's or the district's details). */
export function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text c={MUTED_TEXT}>{label}</Text>
      <Text fw={700} ta="right">
        {children}
      </Text>
    </Group>
  );
}
