import {
  elapsedSeconds,
  formatDuration,
  isOverdue,
  isUnregistered,
  LONG_PRESS_MS,
  NO_PRIMARY_CONTACT,
  NOT_REGISTERED,
  ordinal,
  positionLabel,
  type QueueEntry,
  SWIPE_REMOVE_PX,
  shortName,
  vehicleDescription,
  vehicleLabel,
  vehicleName,
} from '@curbside/domain';
import { ActionIcon, Badge } from '@mantine/core';
import { memo } from 'react';
import { BORDER, DANGER_TEXT, MUTED_TEXT } from '../../lib/theme';
import { AlsoAllowed } from '../authorized-pickups/also-allowed';
import { CardMenu, useCardMenu } from './card-menu';
import { CardTooltip, useCardTooltip } from './card-tooltip';
import { EntryNotCalled } from './not-called';
import { useRemoveFromQueue } from './queue.queries';
import { useMarksOf } from './releases';
import { useEverySecond } from './use-now';
import { usePress } from './use-press';
import classes from './vehicle-card.module.css';

/** The badges of an entry: Overflow (red), Waiting (outline), Ready, and `Batch #n` when batched. */
/**
 * A badge per child a teacher released (green) or whose pickup completed
 * (blue), from the session's marks, kept current by the live events.
 */
export function ChildMarks({ entry }: { entry: QueueEntry }) {
  const marks = useMarksOf(entry.sessionId, entry.students);
  const shown = entry.students.flatMap((student) => {
    const mark = marks.find((each) => each.studentId === student.id);
    if (!mark) return [];
    const picked = mark.pickedUpAt !== null && entry.status === 'completed';
    if (!picked && mark.releasedAt === null) return [];
    return [{ student, picked }];
  });
  if (shown.length === 0) return null;
  return (
    <>
      {shown.map(({ student, picked }) => (
        <Badge key={student.id} color={picked ? 'blue.9' : 'green.9'} variant="filled" size="lg" tt="none">
          {`${shortName(student)} ${picked ? 'picked up' : 'released'}`}
        </Badge>
      ))}
    </>
  );
}

// Named for React's profiler and the tests' render counts (the build shortens function names).
ChildMarks.displayName = 'ChildMarks';

export function EntryBadges({ entry }: { entry: QueueEntry }) {
  return (
    <div className={classes.badges}>
      <ChildMarks entry={entry} />
      {entry.status === 'overflow' && (
        <Badge color="red" variant="filled" size="lg">
          Overflow
        </Badge>
      )}
      {entry.status === 'waiting' && (
        <Badge variant="outline" color="var(--mantine-color-text)" size="lg">
          Waiting
        </Badge>
      )}
      {entry.status === 'ready' && (
        <Badge color="green.9" variant="filled" size="lg">
          Ready
        </Badge>
      )}
      {entry.batchId !== null && (
        <Badge color="blue.9" variant="filled" size="lg">
          {`Batch #${entry.batchNumber ?? ''}`}
        </Badge>
      )}
      {isUnregistered(entry) && (
        <Badge color="orange.9" variant="filled" size="lg">
          {NOT_REGISTERED}
        </Badge>
      )}
    </div>
  );
}

interface VehicleCardProps {
  entry: QueueEntry & { position: number | null };
  /** Vehicles of this type in the queue, for "2nd from front, 4th from back". */
  total: number;
  onOpen: (entry: QueueEntry) => void;
}

/**
 * Whether a card would be drawn the same (issue 57, h57r): the list orders its answer into new
 * objects at each answer, but an entry that did not change keeps each of its fields (TanStack
 * Query keeps the parts of an answer equal to the last), so a card is drawn again only for a
 * change of its own entry, of its line's length or of its handler.
 */
function sameCard(before: VehicleCardProps, after: VehicleCardProps) {
  const fields = Object.keys(after.entry) as Array<keyof VehicleCardProps['entry']>;
  return (
    before.total === after.total &&
    before.onOpen === after.onOpen &&
    fields.length === Object.keys(before.entry).length &&
    fields.every((field) => Object.is(before.entry[field], after.entry[field]))
  );
}

/** The ⋮ glyph of the menu button (one element for every card: no component to draw). */
const DOTS = (
  <svg width="26" height="26" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <circle cx="12" cy="5" r="2.4" fill="currentColor" />
    <circle cx="12" cy="12" r="2.4" fill="currentColor" />
    <circle cx="12" cy="19" r="2.4" fill="currentColor" />
  </svg>
);

/** How long the vehicle has waited, drawn again each second (alone: not its card). */
function Wait({ since }: { since: string }) {
  return useEverySecond((now) => formatDuration(elapsedSeconds(since, now)));
}

/**
 * One queued vehicle. Tap or click: details. Long press (800 ms), right click
 * or the ⋮ button: the menu. Swipe sideways more than 300 px: removed. The
 * card is a group named after the vehicle; its number plate is the button
 * that assistive technology and keyboards use (Enter: details, the menu key:
 * the menu). Names wrap rather than being cut off on narrow phones. Memoised (`sameCard`).
 */
export const VehicleCard = memo(function VehicleCard({ entry, total, onOpen }: VehicleCardProps) {
  const menu = useCardMenu();
  const tooltip = useCardTooltip(menu.button);
  const remove = useRemoveFromQueue();
  const press = usePress({
    delay: LONG_PRESS_MS.cardMenu,
    onLongPress: menu.open,
    onTap: () => onOpen(entry),
    onSwipe: () => remove.mutate(entry),
    swipeDistance: SWIPE_REMOVE_PX,
    contextMenu: true,
  });
  const overdue = useEverySecond((now) => isOverdue(entry, now));
  const name = vehicleName(entry.vehicleType, entry.vehicleNumber);
  const description = vehicleDescription(entry.vehicle);
  const children = entry.students.map(shortName).join(', ');
  const swipe = Math.min(1, Math.abs(press.offset) / SWIPE_REMOVE_PX);
  const bus = entry.vehicleType === 'bus';

  return (
    // The menu and its ⋮ button sit beside the card, not inside it: events from
    // them would otherwise bubble into the card's press handlers.
    <div className={classes.card}>
      {/* biome-ignore lint/a11y/useSemanticElements: a fieldset would draw its own frame; the card was Paper's div */}
      <div
        {...press.handlers}
        role="group"
        aria-label={name}
        data-overdue={overdue || undefined}
        data-entry-id={entry.id}
        className={classes.paper}
        style={{
          cursor: 'pointer',
          userSelect: 'none',
          WebkitUserSelect: 'none',
          WebkitTouchCallout: 'none',
          touchAction: 'pan-y',
          borderWidth: overdue ? 3 : 2,
          borderColor: overdue ? 'var(--mantine-color-red-8)' : BORDER,
          // Sliding with the finger; shrinking slightly while a long press builds up.
          transform: press.offset
            ? `translateX(${press.offset}px)`
            : press.pressing
              ? 'scale(0.97)'
              : undefined,
          opacity: 1 - swipe * 0.6,
          transition: press.offset
            ? undefined
            : press.pressing
              ? `transform ${LONG_PRESS_MS.cardMenu}ms linear`
              : 'transform 150ms ease, opacity 150ms ease',
        }}
      >
        <div className={classes.body}>
          <div className={classes.top}>
            <button
              type="button"
              aria-haspopup="dialog"
              className={`mantine-focus-auto ${classes.plate}`}
              data-bus={bus || undefined}
            >
              <span className={classes.hidden}>{bus ? 'Bus ' : 'Car '}</span>
              {vehicleLabel(entry.vehicleType, entry.vehicleNumber)}
            </button>
            <div className={classes.details}>
              <p className={`${classes.text} ${classes.parent}`}>
                {entry.vehicle?.parentName || NO_PRIMARY_CONTACT}
              </p>
              {description && (
                <p className={classes.text} style={{ color: MUTED_TEXT }}>
                  {description}
                </p>
              )}
              {children && <p className={`${classes.text} ${classes.bold}`}>{children}</p>}
              {entry.notCalled && entry.notCalled.length > 0 && <EntryNotCalled entry={entry} />}
              <AlsoAllowed students={entry.students} />
            </div>
            <p
              className={`${classes.text} ${classes.wait}`}
              style={{ color: overdue ? DANGER_TEXT : MUTED_TEXT }}
            >
              <span className={classes.hidden}>In queue </span>
              <Wait since={entry.queueTime} />
            </p>
          </div>
          {/* Room on the right for the ⋮ button, which sits over this row. */}
          <div className={classes.bottom}>
            <p className={`${classes.text} ${classes.position}`} style={{ color: MUTED_TEXT }}>
              {entry.position !== null ? positionLabel(entry.position, total, ordinal) : ''}
            </p>
            <EntryBadges entry={entry} />
          </div>
        </div>
      </div>
      {/* The visible way to the long-press menu; its tooltip mounted on the first hover or focus. */}
      <ActionIcon
        {...menu.buttonProps}
        {...tooltip.buttonProps}
        variant="subtle"
        color="var(--mantine-color-text)"
        size={48}
        pos="absolute"
        bottom={4}
        right={4}
        aria-label={`Actions for ${name}`}
        onClick={(event) => {
          tooltip.buttonProps.onClick(event);
          menu.toggle();
        }}
      >
        {DOTS}
      </ActionIcon>
      {tooltip.mounted && <CardTooltip tooltip={tooltip} label="Actions (or press and hold the card)" />}
      {menu.mounted && <CardMenu menu={menu} entry={entry} name={name} />}
    </div>
  );
}, sameCard);
