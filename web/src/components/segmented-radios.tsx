import { Box, type MantineSize, SegmentedControl } from '@mantine/core';
import { type CSSProperties, useId } from 'react';

const classes = SegmentedControl.classes;

interface SegmentedRadiosProps<T extends string> {
  'aria-label': string;
  value: T;
  onChange: (value: T) => void;
  data: ReadonlyArray<{ label: string; value: T }>;
  size?: MantineSize;
}

/**
 * Mantine's SegmentedControl drawn the same (its classes, its full width, its items' borders),
 * radios in a radiogroup, without its floating indicator. Issue 57: the indicator measures the
 * chosen label as it mounts (a forced layout of the whole page in the screen's first commit)
 * and draws the control three times more (its parent, its labels, its key); here the chosen
 * label's own background is the indicator, as Mantine draws it before it has measured. What it
 * gives up: the indicator's slide from one item to the other.
 */
export function SegmentedRadios<T extends string>({
  'aria-label': label,
  value,
  onChange,
  data,
  size = 'md',
}: SegmentedRadiosProps<T>) {
  const name = useId();
  const vars = {
    '--sc-shadow': 'var(--mantine-shadow-xs)',
    '--sc-padding': `var(--sc-padding-${size})`,
    '--sc-font-size': `var(--mantine-font-size-${size})`,
  } as CSSProperties;
  return (
    <Box
      className={`${classes.root} mantine-SegmentedControl-root`}
      style={vars}
      mod={{ 'full-width': true, 'with-items-borders': true }}
      role="radiogroup"
      aria-label={label}
    >
      {data.map((item) => {
        const active = item.value === value;
        const id = `${name}-${item.value}`;
        return (
          <Box
            key={item.value}
            className={`${classes.control} mantine-SegmentedControl-control`}
            mod={{ active }}
          >
            <input
              className={`${classes.input} mantine-SegmentedControl-input`}
              type="radio"
              name={name}
              value={item.value}
              id={id}
              checked={active}
              onChange={() => onChange(item.value)}
              data-focus-ring="auto"
            />
            <Box
              component="label"
              className={`${classes.label} mantine-SegmentedControl-label`}
              mod={{ active }}
              htmlFor={id}
            >
              <span className={`${classes.innerLabel} mantine-SegmentedControl-innerLabel`}>
                {item.label}
              </span>
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}
