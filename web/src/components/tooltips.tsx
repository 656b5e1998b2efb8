import { Tooltip, type TooltipProps } from '@mantine/core';
import {
  cloneElement,
  type FocusEvent,
  isValidElement,
  type PointerEvent,
  type ReactElement,
  type ReactNode,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';

/**
 * The specification's tooltip delays (§10 constants): a tooltip opens after
 * 700 ms of hover, and while one is open or has just closed (300 ms), the
 * next one in the group opens at once.
 */
export const TOOLTIP_DELAYS = { openMs: 700, skipMs: 300 } as const;

/**
 * The delay group every icon tooltip of the app shares (issue 57, h57b): which tooltip is open,
 * or still shown in the 300 ms after its pointer left. It was Mantine's `Tooltip.Group`
 * (floating-ui's delay group) around every staff screen, which loaded the popover's code
 * before the front queue's keypad; a module's state needs no provider, so only the screens that
 * draw an icon tooltip load any of it. Its rules are the group's: a tooltip opens 700 ms after
 * the pointer rests on its button, at once while another is shown (which then closes at once),
 * stays 300 ms after the pointer leaves (the skip window), and opens at once on keyboard focus.
 */
let shown: string | null = null;
const handOvers = new Set<() => void>();
const show = (id: string) => {
  shown = id;
  for (const handOver of handOvers) handOver();
};
const hide = (id: string) => {
  if (shown === id) shown = null;
};

/** What floating-ui's delay group gives the tooltip that closes for a neighbour's (ms). */
const HANDED_OVER_MS = 10;
/** Mantine's Tooltip's own fade (ms). */
const FADE_MS = 100;

type Handlers = {
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onPointerLeave?: (event: PointerEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onBlur?: (event: FocusEvent<HTMLElement>) => void;
};

const focusVisible = (element: Element) => {
  try {
    return element.matches(':focus-visible');
  } catch {
    return false;
  }
};

/**
 * One tooltip's place in the group: whether it is open, and the handlers its button takes.
 * A tooltip mounted under a pointer already resting on its button (or on a button focused by
 * keyboard) starts as if the pointer had just come.
 */
const useGroupedTooltip = () => {
  const id = useId();
  const [opened, setOpened] = useState(false);
  const [handedOver, setHandedOver] = useState(false);
  // The button (Mantine types its Tooltip's ref as a div's; it is the target's).
  const target = useRef<HTMLDivElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const openedRef = useRef(false);

  const wait = (ms: number, then: () => void) => {
    clearTimeout(timer.current);
    timer.current = ms > 0 ? setTimeout(then, ms) : undefined;
    if (ms <= 0) then();
  };
  const open = () => {
    openedRef.current = true;
    setHandedOver(false);
    setOpened(true);
    show(id);
  };
  const close = (forNeighbour = false) => {
    clearTimeout(timer.current);
    openedRef.current = false;
    setHandedOver(forNeighbour);
    setOpened(false);
    hide(id);
  };
  const enter = () => {
    if (openedRef.current) wait(0, open);
    else wait(shown !== null && shown !== id ? 0 : TOOLTIP_DELAYS.openMs, open);
  };
  const leave = () => {
    if (openedRef.current) wait(TOOLTIP_DELAYS.skipMs, close);
    else clearTimeout(timer.current);
  };
  const actions = useRef({ enter, leave, close });
  actions.current = { enter, leave, close };

  useEffect(() => {
    const handOver = () => {
      if (openedRef.current && shown !== id) actions.current.close(true);
    };
    handOvers.add(handOver);
    // Escape and a press elsewhere close it (floating-ui's dismiss did).
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && openedRef.current) actions.current.close();
    };
    const onPress = (event: Event) => {
      if (openedRef.current && !target.current?.contains(event.target as Node)) actions.current.close();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPress);
    const element = target.current;
    if (element?.matches(':hover')) actions.current.enter();
    else if (element && element === document.activeElement && focusVisible(element)) actions.current.enter();
    return () => {
      handOvers.delete(handOver);
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPress);
      clearTimeout(timer.current);
      hide(id);
    };
  }, [id]);

  const handlers: Required<Handlers> = {
    onPointerEnter: (event) => {
      // For the pointer: a touch screen keeps the button's label.
      if (event.pointerType !== 'touch') actions.current.enter();
    },
    onPointerLeave: (event) => {
      if (event.pointerType !== 'touch') actions.current.leave();
    },
    onFocus: (event) => {
      if (focusVisible(event.currentTarget)) wait(0, open);
    },
    onBlur: () => {
      if (openedRef.current) close();
    },
  };
  return { opened, handedOver, target, handlers };
};

/** `child` with `handlers` run after its own. */
const withHandlers = (child: ReactNode, handlers: Required<Handlers>) => {
  if (!isValidElement<Handlers>(child)) return child;
  const own = child.props;
  const both = <K extends keyof Handlers>(name: K) =>
    ((event: never) => {
      (own[name] as ((event: never) => void) | undefined)?.(event);
      (handlers[name] as (event: never) => void)(event);
    }) as Handlers[K];
  return cloneElement(child as ReactElement<Handlers>, {
    onPointerEnter: both('onPointerEnter'),
    onPointerLeave: both('onPointerLeave'),
    onFocus: both('onFocus'),
    onBlur: both('onBlur'),
  });
};

/**
 * An icon button's name shown on hover or keyboard focus (a mouse or a
 * keyboard at the office; on a touch screen nothing depends on it, the
 * button keeps its `aria-label`). Mantine's Tooltip draws it, opened by the
 * app's delay group above.
 */
export function IconTooltip({
  label,
  children,
  ...props
}: { label: string; children: ReactNode } & Omit<TooltipProps, 'label' | 'children'>) {
  const tooltip = useGroupedTooltip();
  return (
    <Tooltip
      ref={tooltip.target}
      label={label}
      withArrow
      opened={tooltip.opened}
      events={{ hover: false, focus: false, touch: false }}
      transitionProps={{ duration: tooltip.handedOver ? HANDED_OVER_MS : FADE_MS }}
      fz="md"
      {...props}
    >
      {withHandlers(children, tooltip.handlers)}
    </Tooltip>
  );
}
