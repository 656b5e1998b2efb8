import {
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  type TouchEvent,
  useCallback,
  useEffect,
  useRef,
  useState,
} from 'react';

export interface PressOptions {
  /** How long (ms) a press must last to count as a long press. */
  delay: number;
  onLongPress: () => void;
  /** A short tap or click (not after a long press or a swipe). */
  onTap?: () => void;
  /** Enables horizontal swiping: called when a swipe ends further than `swipeDistance` px. */
  onSwipe?: () => void;
  swipeDistance?: number;
  /** Holding Enter or Space counts as a press (for native buttons). */
  keyboard?: boolean;
  /** A right click or the keyboard's menu key counts as a long press (a card's menu). */
  contextMenu?: boolean;
  disabled?: boolean;
}

/** Movement (px) that turns a press into a scroll or a swipe. */
const SLOP = 12;

interface Gesture {
  pointerId: number;
  x: number;
  y: number;
  swiping: boolean;
  pointerType: string;
}

/**
 * Long press, tap and horizontal swipe from pointer events, so mouse, touch
 * and pen behave the same. `pressing` is true while a press is under way
 * (for a progress indicator); `offset` is the current swipe distance.
 */
export const usePress = ({
  delay,
  onLongPress,
  onTap,
  onSwipe,
  swipeDistance = Number.POSITIVE_INFINITY,
  keyboard = false,
  contextMenu = false,
  disabled = false,
}: PressOptions) => {
  const [pressing, setPressing] = useState(false);
  const [offset, setOffset] = useState(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const gesture = useRef<Gesture | null>(null);
  const swallowClick = useRef(false);
  const lastPointerType = useRef('mouse');
  const callbacks = useRef({ onLongPress, onTap, onSwipe });
  callbacks.current = { onLongPress, onTap, onSwipe };

  const stopTimer = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
    setPressing(false);
  }, []);

  const startTimer = useCallback(() => {
    clearTimeout(timer.current);
    setPressing(true);
    timer.current = setTimeout(() => {
      timer.current = undefined;
      setPressing(false);
      swallowClick.current = true;
      callbacks.current.onLongPress();
    }, delay);
  }, [delay]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const end = () => {
    gesture.current = null;
    setOffset(0);
    stopTimer();
  };

  return {
    pressing,
    offset,
    handlers: {
      onPointerDown: (event: PointerEvent<HTMLElement>) => {
        lastPointerType.current = event.pointerType;
        swallowClick.current = false;
        if (disabled || (event.pointerType === 'mouse' && event.button !== 0)) return;
        gesture.current = {
          pointerId: event.pointerId,
          x: event.clientX,
          y: event.clientY,
          swiping: false,
          pointerType: event.pointerType,
        };
        if (onSwipe && event.pointerType === 'mouse') {
          // Keep receiving moves when the mouse leaves the element mid-swipe.
          event.currentTarget.setPointerCapture?.(event.pointerId);
        }
        startTimer();
      },
      onPointerMove: (event: PointerEvent<HTMLElement>) => {
        const current = gesture.current;
        if (!current || current.pointerId !== event.pointerId) return;
        const dx = event.clientX - current.x;
        const dy = event.clientY - current.y;
        if (!current.swiping && Math.abs(dx) < SLOP && Math.abs(dy) < SLOP) return;
        stopTimer();
        if (onSwipe && (current.swiping || Math.abs(dx) > Math.abs(dy))) {
          current.swiping = true;
          setOffset(dx);
        } else if (!current.swiping) {
          // A vertical drag is a scroll, not a press.
          gesture.current = null;
        }
      },
      onPointerUp: (event: PointerEvent<HTMLElement>) => {
        const current = gesture.current;
        if (current?.pointerId === event.pointerId && current.swiping) {
          swallowClick.current = true;
          if (Math.abs(event.clientX - current.x) > swipeDistance) callbacks.current.onSwipe?.();
        }
        end();
      },
      onPointerCancel: (event: PointerEvent<HTMLElement>) => {
        // Chromium may cancel a still touch when its own long-press gesture starts; the
        // finger is still down, so the press goes on until the touch ends (below).
        const current = gesture.current;
        if (event.pointerType === 'touch' && current && !current.swiping) return;
        end();
      },
      onTouchMove: (event: TouchEvent<HTMLElement>) => {
        const current = gesture.current;
        const touch = event.touches[0];
        if (current?.pointerType !== 'touch' || current.swiping || !touch) return;
        if (Math.abs(touch.clientX - current.x) >= SLOP || Math.abs(touch.clientY - current.y) >= SLOP) end();
      },
      onTouchEnd: () => {
        if (gesture.current?.pointerType === 'touch') end();
      },
      onTouchCancel: () => {
        if (gesture.current?.pointerType === 'touch') end();
      },
      onClick: (event: MouseEvent<HTMLElement>) => {
        if (swallowClick.current) {
          swallowClick.current = false;
          event.preventDefault();
          return;
        }
        if (!disabled) callbacks.current.onTap?.();
      },
      onContextMenu: (event: MouseEvent<HTMLElement>) => {
        // No browser menu on a long touch; with `contextMenu`, a right click
        // (or the keyboard's menu key) opens our menu at once.
        event.preventDefault();
        if (!contextMenu || disabled) return;
        if (lastPointerType.current === 'touch' || lastPointerType.current === 'pen') return;
        if (!gesture.current) {
          swallowClick.current = false;
          callbacks.current.onLongPress();
        }
      },
      onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
        if (disabled || event.repeat) return;
        if (keyboard && (event.key === 'Enter' || event.key === ' ')) {
          event.preventDefault();
          swallowClick.current = false;
          startTimer();
        } else if (!keyboard && (event.key === 'Enter' || event.key === ' ')) {
          event.preventDefault();
          callbacks.current.onTap?.();
        }
      },
      onKeyUp: (event: KeyboardEvent<HTMLElement>) => {
        if (keyboard && (event.key === 'Enter' || event.key === ' ')) stopTimer();
      },
      onBlur: end,
    },
  };
};
