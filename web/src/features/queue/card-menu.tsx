import type { QueueEntry } from '@curbside/domain';
import { Menu } from '@mantine/core';
import { type RefObject, useEffect, useId, useImperativeHandle, useRef, useState } from 'react';
import { DANGER_TEXT } from '../../lib/theme';
import { useRemoveFromQueue } from './queue.queries';

/** The menu's three removals, each telling the server what happened (the record keeps it). */
const MENU_ACTIONS = [
  ['Child picked up', 'picked_up'],
  ['Vehicle left', 'left'],
  ['Remove from queue', 'removed'],
] as const;

/**
 * A queue card's menu, mounted on first use (issue 57, h57z): a Mantine Menu (a Popover: floating-ui,
 * focus return, click outside) per card was most of a card's first draw. Until the ⋮ button, a
 * long press or the menu key is used, a card has only its plain ⋮ button; at the first use the Menu
 * mounts closed and opens at the next render, so Mantine's focus return sees the opening and
 * takes focus back to the element that had it (the ⋮ button) on Escape, as before. The ⋮ button is
 * never remounted: the Menu is anchored to that same DOM button (`MenuAnchor`), which carries the
 * roles Menu.Target would give it (`aria-haspopup`, `aria-expanded`, `aria-controls`, `id`).
 */
export function useCardMenu() {
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const [mounted, setMounted] = useState(false);
  const [opened, setOpened] = useState(false);
  const [pending, setPending] = useState(false);
  useEffect(() => {
    if (mounted && pending) {
      setPending(false);
      setOpened(true);
    }
  }, [mounted, pending]);
  const open = () => {
    if (mounted) setOpened(true);
    else {
      setMounted(true);
      setPending(true);
    }
  };
  return {
    id,
    button,
    mounted,
    opened,
    open,
    setOpened,
    toggle: () => (opened ? setOpened(false) : open()),
    /** The ⋮ button's roles, the ones Menu.Target gives its target. */
    buttonProps: {
      ref: button,
      id: `${id}-target`,
      'aria-haspopup': 'menu',
      'aria-expanded': opened,
      'aria-controls': opened ? `${id}-dropdown` : undefined,
      'data-expanded': opened || undefined,
    } as const,
  };
}

/** Menu.Target's child: renders nothing, hands the Menu the card's own ⋮ button as its anchor. */
function MenuAnchor({ target, ref }: { target: RefObject<HTMLButtonElement | null>; ref?: unknown }) {
  useImperativeHandle(ref as RefObject<HTMLButtonElement | null>, () => target.current as HTMLButtonElement, [
    target,
  ]);
  return null;
}

/** The card's menu, drawn only once `useCardMenu` has been used. */
export function CardMenu({
  menu,
  entry,
  name,
}: {
  menu: ReturnType<typeof useCardMenu>;
  entry: QueueEntry;
  name: string;
}) {
  const remove = useRemoveFromQueue();
  return (
    <Menu
      id={menu.id}
      opened={menu.opened}
      onChange={menu.setOpened}
      position="bottom-end"
      width={280}
      shadow="lg"
      radius="md"
      returnFocus
      // After a long touch some browsers still send mousedown and click;
      // only a new press (pointerdown) outside closes the menu.
      clickOutsideEvents={['pointerdown', 'keydown']}
    >
      <Menu.Target>
        <MenuAnchor target={menu.button} />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label fz="md">{name}</Menu.Label>
        {MENU_ACTIONS.map(([action, reason]) => (
          <Menu.Item
            key={action}
            fz="lg"
            py="md"
            fw={600}
            c={reason === 'removed' ? DANGER_TEXT : undefined}
            onClick={() => remove.mutate(entry, reason)}
          >
            {action}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
