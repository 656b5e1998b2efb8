import { FloatingIndicator, type MantineSize, SegmentedControl } from '@mantine/core';
import { type CSSProperties, type HTMLAttributes, useId } from 'react';

const classes = SegmentedControl.classes;

export interface SegmentedRadiosProps<Value extends string>
  extends Omit<HTMLAttributes<HTMLDivElement>, 'onChange' | 'role'> {
  /** The group's name for a screen reader (`aria-label` of the radio group). */
  label: string;
  data: ReadonlyArray<{ value: Value; label: string }>;
  value: Value;
  onChange: (value: Value) => void;
  size?: MantineSize;
  /** Segments of equal width across the whole width, the chosen one's indicator sliding between them. */
  fullWidth?: boolean;
}

/**
 * Mantine's SegmentedControl drawn without measuring anything (issue 57, h57d, h57v): the same
 * elements, class names, data attributes and variables (the same stylesheet, which the pages
 * load already, so the same look in every color scheme), and native radios sharing one name: one
 * stop for Tab, the arrow keys move the choice, a screen reader hears a radio group.
 *
 * Mantine's control places its sliding indicator by reading the chosen label's box and its own
 * (`FloatingIndicator`), after two state updates made from its refs: a render again and a layout
 * forced inside the commit that mounts it (on the front queue, the largest share of the task that
 * drew its keypad before the paint). Full width, the segments are of equal width (each `flex: 1`),
 * so the indicator's place is known without a measure: a fraction of the width, moved by the chosen
 * index in CSS, and it slides as Mantine's does. Otherwise the chosen label's own background stands
 * for the indicator, as Mantine draws it before it has measured (no slide).
 */
export function SegmentedRadios<Value extends string>({
  label,
  data,
  value,
  onChange,
  size = 'md',
  fullWidth = false,
  style,
  ...root
}: SegmentedRadiosProps<Value>) {
  const name = useId();
  const chosen = data.findIndex((item) => item.value === value);
  return (
    <div
      {...root}
      className={`${classes.root} mantine-SegmentedControl-root`}
      role="radiogroup"
      aria-label={label}
      data-size={size}
      data-full-width={fullWidth || undefined}
      data-with-items-borders
      // With the indicator drawn, the chosen label's own background (Mantine's before it measures) is not.
      data-initialized={fullWidth || undefined}
      style={
        {
          '--sc-shadow': 'var(--mantine-shadow-xs)',
          '--sc-padding': `var(--sc-padding-${size})`,
          '--sc-font-size': `var(--mantine-font-size-${size})`,
          ...style,
        } as CSSProperties
      }
    >
      {fullWidth && chosen >= 0 && (
        <span
          className={`${FloatingIndicator.classes.root} ${classes.indicator} mantine-SegmentedControl-indicator`}
          data-initialized
          data-reduce-motion
          style={
            {
              top: 4,
              left: 4,
              height: 'calc(100% - 8px)',
              width: `calc((100% - 8px) / ${data.length})`,
              transform: `translateX(${chosen * 100}%)`,
              '--transition-duration': 'var(--sc-transition-duration)',
            } as CSSProperties
          }
        />
      )}
      {data.map((item) => {
        const active = item.value === value;
        const id = `${name}-${item.value}`;
        return (
          <div
            key={item.value}
            className={`${classes.control} mantine-SegmentedControl-control`}
            data-active={active || undefined}
          >
            <input
              className={`${classes.input} mantine-SegmentedControl-input`}
              id={id}
              type="radio"
              name={name}
              value={item.value}
              checked={active}
              onChange={() => onChange(item.value)}
              data-focus-ring="auto"
            />
            <label
              className={`${classes.label} mantine-SegmentedControl-label`}
              htmlFor={id}
              data-active={active || undefined}
            >
              <span className={`${classes.innerLabel} mantine-SegmentedControl-innerLabel`}>
                {item.label}
              </span>
            </label>
          </div>
        );
      })}
    </div>
  );
}
