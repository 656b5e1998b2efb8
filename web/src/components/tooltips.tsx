import { Tooltip, type TooltipProps } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The specification's tooltip delays (§10 constants): a tooltip opens after
 * 700 ms of hover, and while one is open or has just closed (300 ms), the
 * next one in the group opens at once.
 */
export const TOOLTIP_DELAYS = { openMs: 700, skipMs: 300 } as const;

/**
 * The tooltips of the screens inside share these delays through Mantine's
 * `Tooltip.Group` (floating-ui's delay group): its close delay is the skip
 * window in which a neighbour's tooltip needs no new wait. The staff shell
 * holds it (every icon tooltip is on a staff screen).
 */
export function TooltipDelays({ children }: { children: ReactNode }) {
  return (
    <Tooltip.Group openDelay={TOOLTIP_DELAYS.openMs} closeDelay={TOOLTIP_DELAYS.skipMs}>
      {children}
    </Tooltip.Group>
  );
}

/**
 * An icon button's name shown on hover or keyboard focus (a mouse or a
 * keyboard at the office; on a touch screen nothing depends on it, the
 * button keeps its `aria-label`).
 */
export function IconTooltip({
  label,
  children,
  ...props
}: { label: string; children: ReactNode } & Omit<TooltipProps, 'label' | 'children'>) {
  return (
    <Tooltip
      label={label}
      withArrow
      // Outside a group too, the specification's open delay.
      openDelay={TOOLTIP_DELAYS.openMs}
      events={{ hover: true, focus: true, touch: false }}
      fz="md"
      {...props}
    >
      {children}
    </Tooltip>
  );
}
