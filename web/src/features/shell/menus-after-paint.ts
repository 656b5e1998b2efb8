import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { afterPaintWhenIdle } from '../../lib/after-paint';

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
 * the front queue's keypad's path. The menu is mounted on its first use only (h57kb): a tap or an
 * opening key on the button loads it (at once if it has not come yet) and opens it when it comes
 * (`opened`); the menu's button replaces the drawn one, and takes its focus if it had it.
 * `buttonProps`: what the drawn button takes for it (the same name, `aria-haspopup` and
 * `aria-expanded` as the menu's own button).
 *
 * Mounted after the paint, both menus drew in one task their first render (57 components) and,
 * at once, a second one (Mantine's Popover, its target and dropdown setting floating-ui's elements
 * in the commit, 42 components): now the code only is loaded after the paint, and nothing is drawn
 * until the menu is used.
 */
export const useMenuAfterPaint = () => {
  const [menus, setMenus] = useState<HeaderMenus | null>(null);
  const [opened, setOpened] = useState(false);
  const [asked, setAsked] = useState(false);
  const focused = useRef(false);
  // The code only, after the paint when idle, so that the first tap does not wait for it.
  useEffect(() => afterPaintWhenIdle(() => void loadHeaderMenus()), []);
  // Mounted closed, then opened at the next render: Mantine's focus return sees the menu open (it
  // records the focused button on a change of `opened`, not on a mount opened).
  useEffect(() => {
    if (menus && asked) {
      setAsked(false);
      setOpened(true);
    }
  }, [menus, asked]);
  const open = () => {
    setAsked(true);
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
