import {
  createContext,
  type DragEvent,
  type MouseEvent,
  type PointerEvent,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { z } from 'zod';
import type { DropTarget } from './batches.queries';

/**
 * Dragging a vehicle chip out of its batch onto 'Back to Queue' or 'Overflow
 * Area'. A mouse uses HTML5 drag and drop (the chip's JSON in the
 * dataTransfer); a finger or pen uses pointer events (the chip follows the
 * finger, the zone under it lights up, release drops).
 */

/** What a chip carries. */
export const chipPayloadSchema = z.object({
  entryId: z.string().min(1),
  batchId: z.number().int().positive(),
});
export type ChipPayload = z.infer<typeof chipPayloadSchema>;

export const CHIP_MIME = 'application/json';

/**
 * The chip carried by a drop, or null: data that is not JSON (or not a chip)
 * is ignored and logged (specification §5).
 */
export const readDrop = (raw: string): ChipPayload | null => {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch (error) {
    console.error('Ignored a drop whose data is not JSON:', error);
    return null;
  }
  const parsed = chipPayloadSchema.safeParse(data);
  if (!parsed.success) {
    console.error('Ignored a drop that carries no vehicle:', raw);
    return null;
  }
  return parsed.data;
};

interface DragState {
  /** A chip is being dragged (mouse or finger): the zones invite a drop. */
  dragging: boolean;
  /** The zone under the pointer or finger. */
  over: DropTarget | null;
  setDragging: (dragging: boolean) => void;
  setOver: (zone: DropTarget | null) => void;
  drop: (zone: DropTarget, payload: ChipPayload) => void;
}

const DragContext = createContext<DragState | null>(null);

export function DragProvider({
  onDrop,
  children,
}: {
  onDrop: (zone: DropTarget, payload: ChipPayload) => void;
  children: ReactNode;
}) {
  const [dragging, setDragging] = useState(false);
  const [over, setOver] = useState<DropTarget | null>(null);
  const latest = useRef(onDrop);
  latest.current = onDrop;
  const value = useMemo<DragState>(
    () => ({
      dragging,
      over,
      setDragging,
      setOver,
      drop: (zone, payload) => latest.current(zone, payload),
    }),
    [dragging, over],
  );
  return <DragContext.Provider value={value}>{children}</DragContext.Provider>;
}

const useDrag = () => {
  const state = useContext(DragContext);
  if (!state) throw new Error('Drag and drop needs a <DragProvider>');
  return state;
};

/** The drop-zone attribute, found under a finger with `elementFromPoint`. */
const ZONE_ATTRIBUTE = 'data-drop-zone';

const zoneAt = (x: number, y: number): DropTarget | null => {
  const element = document.elementFromPoint(x, y)?.closest(`[${ZONE_ATTRIBUTE}]`);
  const zone = element?.getAttribute(ZONE_ATTRIBUTE);
  return zone === 'queue' || zone === 'overflow' ? zone : null;
};

/**
 * Props for an element that accepts dropped chips, and whether it should
 * look highlighted (a chip is over it) or inviting (a drag is under way).
 */
export const useDropZone = (zone: DropTarget) => {
  const { dragging, over, setOver, setDragging, drop } = useDrag();
  return {
    active: over === zone,
    inviting: dragging,
    props: {
      [ZONE_ATTRIBUTE]: zone,
      onDragEnter: (event: DragEvent<HTMLElement>) => {
        event.preventDefault();
        setOver(zone);
      },
      onDragOver: (event: DragEvent<HTMLElement>) => {
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
        if (over !== zone) setOver(zone);
      },
      onDragLeave: (event: DragEvent<HTMLElement>) => {
        const next = event.relatedTarget;
        if (next instanceof Node && event.currentTarget.contains(next)) return;
        if (over === zone) setOver(null);
      },
      onDrop: (event: DragEvent<HTMLElement>) => {
        event.preventDefault();
        setOver(null);
        setDragging(false);
        const payload = readDrop(event.dataTransfer.getData(CHIP_MIME) || event.dataTransfer.getData('text'));
        if (payload) drop(zone, payload);
      },
    },
  };
};

/** Movement (px) after which a finger on a chip drags it. */
const SLOP = 8;
/** A finger held this long lifts the chip (ready to drag). */
const LIFT_MS = 350;
/** Within this distance (px) of the top or bottom edge, a drag scrolls the page. */
const EDGE = 72;

interface TouchDrag {
  pointerId: number;
  startX: number;
  startY: number;
  x: number;
  y: number;
  moving: boolean;
}

/**
 * Drag handlers for one chip. `enabled` false: the chip only opens its
 * details. Returns the handlers, whether the chip is lifted (long press),
 * and where its ghost is while a finger drags it.
 */
export const useChipDrag = (payload: ChipPayload, enabled: boolean, onTap: () => void) => {
  const { setDragging, setOver, drop } = useDrag();
  const [lifted, setLifted] = useState(false);
  const [ghost, setGhost] = useState<{ x: number; y: number } | null>(null);
  const [mouseDragging, setMouseDragging] = useState(false);
  const touch = useRef<TouchDrag | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const frame = useRef<number | undefined>(undefined);
  const swallowClick = useRef(false);
  const json = JSON.stringify(payload);
  const latest = useRef({ json, onTap });
  latest.current = { json, onTap };

  const stopScrolling = useCallback(() => {
    if (frame.current !== undefined) cancelAnimationFrame(frame.current);
    frame.current = undefined;
  }, []);

  const reset = useCallback(() => {
    clearTimeout(timer.current);
    stopScrolling();
    const wasMoving = touch.current?.moving ?? false;
    touch.current = null;
    setLifted(false);
    setGhost(null);
    if (wasMoving) {
      setDragging(false);
      setOver(null);
    }
  }, [setDragging, setOver, stopScrolling]);

  useEffect(() => reset, [reset]);

  /** While the finger rests near the top or bottom edge, scroll and re-check the zone under it. */
  const scrollNearEdges = useCallback(() => {
    const step = () => {
      const current = touch.current;
      if (!current?.moving) {
        frame.current = undefined;
        return;
      }
      const { innerHeight } = window;
      const speed =
        current.y < EDGE
          ? -Math.ceil(((EDGE - current.y) / EDGE) * 18)
          : current.y > innerHeight - EDGE
            ? Math.ceil(((current.y - (innerHeight - EDGE)) / EDGE) * 18)
            : 0;
      if (speed !== 0) {
        window.scrollBy(0, speed);
        setOver(zoneAt(current.x, current.y));
      }
      frame.current = requestAnimationFrame(step);
    };
    if (frame.current === undefined) frame.current = requestAnimationFrame(step);
  }, [setOver]);

  const handlers = {
    draggable: enabled,
    onDragStart: (event: DragEvent<HTMLElement>) => {
      if (!enabled) {
        event.preventDefault();
        return;
      }
      event.dataTransfer.setData(CHIP_MIME, latest.current.json);
      event.dataTransfer.effectAllowed = 'move';
      setMouseDragging(true);
      setDragging(true);
    },
    onDragEnd: () => {
      setMouseDragging(false);
      setDragging(false);
      setOver(null);
    },
    onPointerDown: (event: PointerEvent<HTMLElement>) => {
      swallowClick.current = false;
      if (!enabled) return;
      if (event.pointerType === 'mouse') {
        // A mouse drags the HTML5 way.
        event.currentTarget.draggable = true;
        return;
      }
      // A finger or pen drags with pointer events, never the browser's own drag.
      event.currentTarget.draggable = false;
      event.currentTarget.setPointerCapture?.(event.pointerId);
      touch.current = {
        pointerId: event.pointerId,
        startX: event.clientX,
        startY: event.clientY,
        x: event.clientX,
        y: event.clientY,
        moving: false,
      };
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setLifted(true), LIFT_MS);
    },
    onPointerMove: (event: PointerEvent<HTMLElement>) => {
      const current = touch.current;
      if (!current || current.pointerId !== event.pointerId) return;
      current.x = event.clientX;
      current.y = event.clientY;
      if (!current.moving) {
        const distance = Math.hypot(event.clientX - current.startX, event.clientY - current.startY);
        if (distance < SLOP) return;
        current.moving = true;
        clearTimeout(timer.current);
        setLifted(true);
        setDragging(true);
      }
      setGhost({ x: event.clientX, y: event.clientY });
      setOver(zoneAt(event.clientX, event.clientY));
      scrollNearEdges();
    },
    onPointerUp: (event: PointerEvent<HTMLElement>) => {
      const current = touch.current;
      if (!current || current.pointerId !== event.pointerId) return;
      if (current.moving) {
        swallowClick.current = true;
        const zone = zoneAt(event.clientX, event.clientY);
        if (zone) drop(zone, payload);
      }
      reset();
    },
    onPointerCancel: reset,
    onClick: () => {
      if (swallowClick.current) {
        swallowClick.current = false;
        return;
      }
      latest.current.onTap();
    },
    onContextMenu: (event: MouseEvent<HTMLElement>) => {
      // No browser menu on a long touch.
      if (touch.current) event.preventDefault();
    },
  };

  return { handlers, lifted: lifted || mouseDragging, ghost };
};
