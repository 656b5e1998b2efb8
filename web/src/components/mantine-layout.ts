import { Group, type MantineSize, rem, Stack } from '@mantine/core';
import type { CSSProperties } from 'react';

/*
 * Mantine's Group and Stack as the class and variables a plain element takes (issue 57, h57ka):
 * the same look from Mantine's stylesheet, without their components (each a Box). Apart from the
 * buttons' look (`mantine-look.tsx`): the header's logo, on the parent pages too, needs only these.
 */

/** Mantine's Group (centred, from the start): its class and the gap's and wrapping's variables. */
export const GROUP = `${Group.classes.root} mantine-Group-root`;
export const groupGap = (gap: MantineSize | number, wrap: 'wrap' | 'nowrap') =>
  ({
    '--group-gap': typeof gap === 'number' ? rem(gap) : `var(--mantine-spacing-${gap})`,
    '--group-align': 'center',
    '--group-justify': 'flex-start',
    '--group-wrap': wrap,
  }) as CSSProperties;

/** Mantine's Stack: its class (a column, children stretched) and the gap's variables. */
export const STACK = `${Stack.classes.root} mantine-Stack-root`;
export const stackGap = (gap: MantineSize) =>
  ({
    '--stack-gap': `var(--mantine-spacing-${gap})`,
    '--stack-align': 'stretch',
    '--stack-justify': 'flex-start',
  }) as CSSProperties;
