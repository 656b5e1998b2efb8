import './radio-choices.css';
import { Input, Stack, useMantineTheme } from '@mantine/core';
import { type CSSProperties, useId } from 'react';

/**
 * Mantine 8's class names for its Radio (`Radio.module.css`) and for the `InlineInput` that holds
 * a Radio's label (`web/test/radio-choices.test.ts` holds them to Mantine's own).
 */
export const RADIO_CLASSES = {
  root: 'm_f3f1af94',
  inner: 'm_89c4f5e4',
  icon: 'm_f3ed6b2b',
  radio: 'm_8a3dbb89',
};
export const INLINE_INPUT_CLASSES = {
  root: 'm_5f75b09e',
  body: 'm_5f6e695e',
  labelWrapper: 'm_d3ea56bb',
  label: 'm_8ee546b8',
};

interface RadioChoicesProps<T extends string> {
  label: string;
  value: T;
  onChange: (value: T) => void;
  choices: ReadonlyArray<{ value: T; label: string }>;
  error?: string;
}

/**
 * A group of radios drawn as Mantine's `Radio.Group` of `size="md"` Radios draws it (the same
 * elements, classes, data attributes and variables; native `<input type="radio">` sharing one
 * name, so the arrow keys move the choice and a screen reader reads a radio group named by its
 * label), without Mantine's Radio. That Radio is built on Mantine's `InlineInput`, which the build
 * keeps with the Select's code: the dashboard's trusted adults loaded `select-kit` and
 * `popover-kit` (32 KB, the Combobox and the Popover) and their stylesheets after the page's paint
 * for these three radios alone (issue 57, h57p). The group's label and error are Mantine's
 * `Input.Wrapper`, as the Radio.Group's are.
 */
export function RadioChoices<T extends string>({
  label,
  value,
  onChange,
  choices,
  error,
}: RadioChoicesProps<T>) {
  const theme = useMantineTheme();
  const base = `radios-${useId().replace(/[^\w-]/g, '')}`;
  const vars = {
    '--radio-size': 'var(--radio-size-md)',
    '--radio-color': `var(--mantine-color-${theme.primaryColor}-filled)`,
    '--radio-icon-color': 'var(--mantine-color-white)',
    '--radio-icon-size': 'var(--radio-icon-size-md)',
    '--label-fz': 'var(--mantine-font-size-md)',
    '--label-lh': 'var(--label-lh-md)',
  } as CSSProperties;
  return (
    <Input.Wrapper id={base} label={label} error={error} labelElement="div" __staticSelector="RadioGroup">
      <div
        role="radiogroup"
        aria-labelledby={`${base}-label`}
        aria-describedby={error ? `${base}-error` : undefined}
      >
        <Stack gap="xs" mt={4}>
          {choices.map((choice) => {
            const id = `${base}-${choice.value}`;
            const checked = choice.value === value;
            return (
              <div
                key={choice.value}
                className={`${RADIO_CLASSES.root} mantine-Radio-root ${INLINE_INPUT_CLASSES.root} mantine-Radio-root`}
                data-size="md"
                data-label-position="right"
                data-checked={checked || undefined}
                style={vars}
              >
                <div className={`${INLINE_INPUT_CLASSES.body} mantine-Radio-body`}>
                  <div className={`${RADIO_CLASSES.inner} mantine-Radio-inner`} data-label-position="right">
                    <input
                      className={`mantine-focus-auto ${RADIO_CLASSES.radio} mantine-Radio-radio`}
                      id={id}
                      type="radio"
                      name={`${base}-name`}
                      value={choice.value}
                      checked={checked}
                      onChange={() => onChange(choice.value)}
                    />
                    <svg
                      xmlns="http://www.w3.org/2000/svg"
                      fill="none"
                      viewBox="0 0 5 5"
                      aria-hidden="true"
                      className={`${RADIO_CLASSES.icon} mantine-Radio-icon`}
                    >
                      <circle cx="2.5" cy="2.5" r="2.5" fill="currentColor" />
                    </svg>
                  </div>
                  <div className={`${INLINE_INPUT_CLASSES.labelWrapper} mantine-Radio-labelWrapper`}>
                    <label className={`${INLINE_INPUT_CLASSES.label} mantine-Radio-label`} htmlFor={id}>
                      {choice.label}
                    </label>
                  </div>
                </div>
              </div>
            );
          })}
        </Stack>
      </div>
    </Input.Wrapper>
  );
}
