import { Group, Text } from '@mantine/core';

/** The Curbside mark: a white car on a rounded square in the primary colour. */
export function CurbsideMark({ size = 36 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="var(--mantine-primary-color-filled)" />
      <path d="M6 19l3-7h14l3 7v5h-3v-2H9v2H6z" fill="#fff" />
      <circle cx="10.5" cy="19" r="1.6" fill="var(--mantine-primary-color-filled)" />
      <circle cx="21.5" cy="19" r="1.6" fill="var(--mantine-primary-color-filled)" />
    </svg>
  );
}

/** Mark and name, as shown at the left of the header. */
export function Logo() {
  return (
    <Group gap={8} wrap="nowrap">
      <CurbsideMark />
      <Text fw={800} fz="xl" lh={1}>
        Curbside
      </Text>
    </Group>
  );
}
