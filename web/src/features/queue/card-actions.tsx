import type { RemovalReason } from '@curbside/domain';
import { ActionIcon, type ActionIconProps, Menu } from '@mantine/core';
import { type FocusEvent, type PointerEvent, useEffect, useRef, useState } from 'react';
import { IconTooltip } from '../../components/tooltips';
import { DANGER_TEXT } from '../../lib/theme';

/** The menu's three removals, each telling the server what happened (the record keeps it). */
const MENU_ACTIONS = [
  ['Child picked up', 'picked_up'],
  ['Vehicle left', 'left'],
  ['Remove from queue', 'removed'],
] as const;

/** The ⋮ glyph of the menu button. */
const Dots = () => (
  <svg width="26" height="26" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <circle cx="12" cy="5" r="2.4" fill="currentColor" />
    <circle cx="12" cy="12" r="2.4" fill="currentColor" />
    <circle cx="12" cy="19" r="2.4" fill="currentColor" />
  </svg>
);

/** The ⋮ button as it is drawn, with or without its menu and tooltip (the same button). */
const BUTTON: ActionIconProps = {
  variant: 'subtle',
  color: 'var(--mantine-color-text)',
  size: 48,
  pos: 'absolute',
  bottom: 4,
  right: 4,
};

/** How the menu and tooltip came to be mounted: what they take over from the plain button. */
interface Armed {
  /** The plain button had the keyboard's focus: the mounted one takes it (and shows its tooltip). */
  focus: boolean;
  /** A mouse was over the plain button: the mounted one's tooltip counts it as hovered. */
  hover: boolean;
  /** The menu was asked for (a tap, a click, Enter or Space): it opens once mounted. */
  open: boolean;
}

interface CardActionsProps {
  /** The vehicle's name ("Car 101"): the button's name and the menu's label. */
  name: string;
  /** Open (a long press or right click on the card opens it too). */
  opened: boolean;
  onChange: (opened: boolean) => void;
  onRemove: (reason: RemovalReason) => void;
}

/**
 * A queue card's ⋮ button and its menu (picked up, left, removed) with its tooltip. Issue 57:
 * a closed Menu and Tooltip run floating-ui's hooks in every card's first draw, so until the
 * button is first used (a mouse over it, the keyboard's focus, a tap, or the card's long press)
 * it is a plain button drawn the same, with the same name and role; that first use mounts the
 * menu and tooltip, which take over the tap (the menu opens), the focus and the hover.
 */
export function CardActions({ name, opened, onChange, onRemove }: CardActionsProps) {
  const [armed, setArmed] = useState<Armed | null>(null);
  // A press on the plain button under way: no swap until its click (a button swapped between a
  // press and its release would lose the click; a mouse's arrival may be drawn just then).
  const pressing = useRef(false);
  const label = `Actions for ${name}`;
  if ((armed && !pressing.current) || opened) {
    return (
      <MountedActions
        label={label}
        name={name}
        armed={armed ?? { focus: false, hover: false, open: false }}
        opened={opened}
        onChange={onChange}
        onRemove={onRemove}
      />
    );
  }
  const arm = (how: Partial<Armed>) => setArmed({ focus: false, hover: false, open: false, ...how });
  const released = () => {
    pressing.current = false;
  };
  return (
    <ActionIcon
      {...BUTTON}
      aria-label={label}
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerDown={() => {
        pressing.current = true;
      }}
      onPointerCancel={released}
      onPointerLeave={released}
      onClick={(event) => {
        released();
        arm({ open: true, focus: event.currentTarget === document.activeElement });
      }}
      onPointerEnter={(event: PointerEvent<HTMLButtonElement>) => {
        if (event.pointerType === 'mouse') arm({ hover: true });
      }}
      onFocus={(event: FocusEvent<HTMLButtonElement>) => {
        // The keyboard's focus only: a tap's focus comes between its press and its click, and a
        // button swapped there would lose the click.
        if (event.currentTarget.matches(':focus-visible')) arm({ focus: true });
      }}
    >
      <Dots />
    </ActionIcon>
  );
}

function MountedActions({
  label,
  name,
  armed,
  opened,
  onChange,
  onRemove,
}: CardActionsProps & { label: string; armed: Armed }) {
  const button = useRef<HTMLButtonElement>(null);
  // The menu opens once mounted closed (its focus return then takes the focused button).
  const [ready, setReady] = useState(false);
  // Once, as mounted: what the plain button had.
  // biome-ignore lint/correctness/useExhaustiveDependencies: what the plain button passed on, once
  useEffect(() => {
    const element = button.current;
    if (armed.focus) element?.focus();
    setReady(true);
    if (armed.open) onChange(true);
    // The tooltip's hover listeners are attached by the render that its button's ref asks for,
    // done with the effects of this one: the mouse that came over the plain button is passed on.
    if (armed.hover) {
      queueMicrotask(() => element?.dispatchEvent(new MouseEvent('mousemove', { bubbles: true })));
    }
  }, []);
  return (
    <Menu
      opened={ready && opened}
      onChange={onChange}
      position="bottom-end"
      width={280}
      shadow="lg"
      radius="md"
      returnFocus
      // After a long touch some browsers still send mousedown and click;
      // only a new press (pointerdown) outside closes the menu.
      clickOutsideEvents={['pointerdown', 'keydown']}
    >
      <IconTooltip label="Actions (or press and hold the card)">
        <Menu.Target>
          {/* The visible way to the long-press menu. */}
          <ActionIcon ref={button} {...BUTTON} aria-label={label}>
            <Dots />
          </ActionIcon>
        </Menu.Target>
      </IconTooltip>
      <Menu.Dropdown>
        <Menu.Label fz="md">{name}</Menu.Label>
        {MENU_ACTIONS.map(([action, reason]) => (
          <Menu.Item
            key={action}
            fz="lg"
            py="md"
            fw={600}
            c={reason === 'removed' ? DANGER_TEXT : undefined}
            onClick={() => onRemove(reason)}
          >
            {action}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
