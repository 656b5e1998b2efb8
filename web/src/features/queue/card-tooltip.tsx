import {
  type FocusEvent,
  type PointerEvent,
  type RefObject,
  type SyntheticEvent,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { IconTooltip } from '../../components/tooltips';

type Handler = (event: SyntheticEvent) => void;

/**
 * The React events the icon tooltip listens to on its target (`components/tooltips.tsx`: the pointer
 * entering and leaving, keyboard focus and blur), and those Mantine's Tooltip itself may set.
 */
const HANDED = [
  'onPointerDown',
  'onPointerEnter',
  'onPointerLeave',
  'onMouseMove',
  'onMouseLeave',
  'onFocus',
  'onBlur',
  'onKeyDown',
  'onClick',
] as const;

type Handed = Partial<Record<(typeof HANDED)[number], Handler>> & { 'aria-describedby'?: string };

/**
 * A queue card's ⋮ tooltip, mounted on the button's first mouse hover or keyboard focus (issue 57,
 * h57a): a Mantine Tooltip (floating-ui's `useFloating`, its interactions, the delay group, and a
 * synchronous redraw as its target is set) with every card was much of a card's mount after the
 * front queue's paint, on phones and tablets that never hover. The ⋮ button is never remounted: the
 * Tooltip is anchored to that same DOM button (`TooltipAnchor`), and the button passes on to it the
 * events the Tooltip listens to (`buttonProps`), so once mounted it opens, closes and names the
 * button (`aria-describedby`) as before. The event that mounted it is handed on after the mount: the
 * hover as the `mouseenter` floating-ui waits for (its 700 ms, or the group's skip, start then),
 * the keyboard focus as the focus it missed.
 */
export function useCardTooltip(button: RefObject<HTMLButtonElement | null>) {
  const [mounted, setMounted] = useState(false);
  const handed = useRef<Handed>({});
  /** The event that mounted the Tooltip, handed on to it once it listens. */
  const missed = useRef<SyntheticEvent | null>(null);
  const pass = (name: (typeof HANDED)[number]) => (event: SyntheticEvent) => handed.current[name]?.(event);
  const buttonProps = Object.fromEntries(HANDED.map((name) => [name, pass(name)])) as Record<
    (typeof HANDED)[number],
    Handler
  >;
  const mountFor = (event: SyntheticEvent) => {
    if (mounted) return;
    missed.current = event;
    setMounted(true);
  };
  return {
    mounted,
    handed,
    missed,
    target: button,
    buttonProps: {
      ...buttonProps,
      onPointerEnter: (event: PointerEvent<HTMLButtonElement>) => {
        // A mouse or a pen: a touch screen keeps the button's name, it never hovers.
        if (event.pointerType !== 'touch') mountFor(event);
        buttonProps.onPointerEnter(event);
      },
      onFocus: (event: FocusEvent<HTMLButtonElement>) => {
        // Keyboard focus only (what opens the tooltip); a press's focus waits for a hover.
        if (event.currentTarget.matches(':focus-visible')) mountFor(event);
        buttonProps.onFocus(event);
      },
    },
  };
}

/**
 * The Tooltip's child: draws nothing, hands the Tooltip the card's own ⋮ button as its target (its
 * ref), keeps the props the Tooltip gives its target for the button to pass its events to, and sets
 * the button's `aria-describedby` while the tooltip is open.
 */
function TooltipAnchor({
  tooltip,
  ref,
  ...props
}: Handed & { tooltip: ReturnType<typeof useCardTooltip>; ref?: unknown }) {
  const { target, handed, missed } = tooltip;
  useImperativeHandle(ref as RefObject<HTMLButtonElement | null>, () => target.current as HTMLButtonElement, [
    target,
  ]);
  const describedBy = props['aria-describedby'];
  useLayoutEffect(() => {
    handed.current = props;
    const button = target.current;
    if (!button) return;
    if (describedBy) button.setAttribute('aria-describedby', describedBy);
    else button.removeAttribute('aria-describedby');
  });
  useEffect(() => {
    // After this commit's effects (floating-ui's listeners are set in the Tooltip's, after this one).
    queueMicrotask(() => {
      const event = missed.current;
      const button = target.current;
      if (!event || !button) return;
      missed.current = null;
      if (event.type === 'focus') {
        if (document.activeElement === button) handed.current.onFocus?.(event);
      } else if (button.matches(':hover')) {
        handed.current.onPointerEnter?.(event);
        button.dispatchEvent(new MouseEvent('mouseenter'));
      }
    });
  });
  return null;
}

/** The card's ⋮ tooltip, drawn once `useCardTooltip` has seen a hover or a keyboard focus. */
export function CardTooltip({
  tooltip,
  label,
}: {
  tooltip: ReturnType<typeof useCardTooltip>;
  label: string;
}) {
  return (
    <IconTooltip label={label}>
      <TooltipAnchor tooltip={tooltip} />
    </IconTooltip>
  );
}
