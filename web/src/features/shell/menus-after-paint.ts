import { type KeyboardEvent, startTransition, useEffect, useRef, useState } from 'react';
import { afterPaint } from '../../lib/after-paint';

type HeaderMenus = typeof import('./header-menus');

let loading: Promise<HeaderMenus> | undefined;
/** The header's menus, asked for once by both buttons. */
const loadHeaderMenus = () => {
  loading ??= import('./header-menus');
  return loading;
};

/** The keys that open a menu from its button (Mantine's Menu: Enter and Space click it, ArrowDown too). */
const OPENING_KEYS = new Set(['Enter', ' ', 'ArrowDown']);

/**
 * A header menu's button drawn at once, its menu (`header-menus.tsx`) loaded after the screen's
 * first paint (issue 57, h57y): Mantine's Menu and what it brings (`popover-kit`, 23 KB Brotli) left
 * the front queue's keypad's path. A tap or an opening key on the button before then loads it at
 * once and opens the menu when it comes (`opened`); the menu's button replaces the drawn one, and
 * takes its focus if it had it. `buttonProps`: what the drawn button takes for it (the same name,
 * `aria-haspopup` and `aria-expanded` as the menu's own button).
 */
export const useMenuAfterPaint = () => {
  const [menus, setMenus] = useState<HeaderMenus | null>(null);
  const [opened, setOpened] = useState(false);
  const focused = useRef(false);
  useEffect(() => {
    let live = true;
    // In a transition: the menus' first draw (Mantine's Menu, its Popover and floating-ui, for both
    // of the header's menus) is rendered in slices after the paint, not in one task of React's
    // default lane (101 ms at a phone's CPU in the front queue's profile).
    const cancel = afterPaint(
      () => void loadHeaderMenus().then((loaded) => live && startTransition(() => setMenus(loaded))),
    );
    return () => {
      live = false;
      cancel();
    };
  }, []);
  const open = () => {
    setOpened(true);
    void loadHeaderMenus().then(setMenus);
  };
  const buttonProps = {
    'aria-haspopup': 'menu' as const,
    'aria-expanded': false,
    onClick: open,
    onKeyDown: (event: KeyboardEvent) => {
      if (!OPENING_KEYS.has(event.key)) return;
      event.preventDefault();
      open();
    },
    onFocus: () => {
      focused.current = true;
    },
    onBlur: () => {
      focused.current = false;
    },
  };
  /**
   * What the menu's button takes: focused when it replaces a focused drawn one; ArrowDown opens
   * the menu there too (Mantine's Menu opens on a click, Enter and Space).
   */
  const targetProps = {
    ref: (element: HTMLButtonElement | null) => {
      if (element && focused.current) {
        focused.current = false;
        element.focus();
      }
    },
    onKeyDown: (event: KeyboardEvent) => {
      if (event.key !== 'ArrowDown' || opened) return;
      event.preventDefault();
      setOpened(true);
    },
  };
  /** The menu's state, held here from before it came (`Menu`'s `opened` and `onChange`). */
  const menu = { opened, onChange: setOpened };
  return { menus, menu, buttonProps, targetProps };
};
