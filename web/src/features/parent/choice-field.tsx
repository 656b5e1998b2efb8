import { InputBase } from '@mantine/core';
import type { ReactNode } from 'react';

/** Mantine's Select chevron (its `ComboboxChevron`'s path), drawn without the Combobox's code. */
const CHEVRON =
  'M4.93179 5.43179C4.75605 5.60753 4.75605 5.89245 4.93179 6.06819C5.10753 6.24392 5.39245 6.24392 5.56819 6.06819L7.49999 4.13638L9.43179 6.06819C9.60753 6.24392 9.89245 6.24392 10.0682 6.06819C10.2439 5.89245 10.2439 5.60753 10.0682 5.43179L7.81819 3.18179C7.73379 3.0974 7.61933 3.04999 7.49999 3.04999C7.38064 3.04999 7.26618 3.0974 7.18179 3.18179L4.93179 5.43179ZM10.0682 9.56819C10.2439 9.39245 10.2439 9.10753 10.0682 8.93179C9.89245 8.75606 9.60753 8.75606 9.43179 8.93179L7.49999 10.8636L5.56819 8.93179C5.39245 8.75606 5.10753 8.75606 4.93179 8.93179C4.75605 9.10753 4.75605 9.39245 4.93179 9.56819L7.18179 11.8182C7.35753 11.9939 7.64245 11.9939 7.81819 11.8182L10.0682 9.56819Z';

const chevron = (
  <svg width={20} height={20} viewBox="0 0 15 15" fill="none" aria-hidden="true">
    <path d={CHEVRON} fill="currentColor" fillRule="evenodd" clipRule="evenodd" />
  </svg>
);

/**
 * A choice among a few (the change form's day and way home): the browser's own select, which a
 * phone opens in its own picker, drawn as Mantine's fields are (label, error, size `md`). Issue
 * 57: Mantine's Select brought the Combobox, the Popover and floating-ui (two chunks, 30 KB
 * Brotli, two stylesheets) to the dashboard's first paint, and drew two a child in its first
 * commit. Nothing is chosen until the parent chooses (`placeholder`, not a choice itself).
 */
export function ChoiceField({
  label,
  placeholder,
  data,
  value,
  onChange,
  error,
}: {
  label: string;
  placeholder: string;
  data: ReadonlyArray<{ value: string; label: string }>;
  value: string | null;
  onChange: (value: string | null) => void;
  error?: ReactNode;
}) {
  return (
    <InputBase
      component="select"
      label={label}
      size="md"
      pointer
      value={value ?? ''}
      onChange={(event) => onChange(event.currentTarget.value || null)}
      error={error}
      rightSection={chevron}
      rightSectionPointerEvents="none"
      // "Choose" in the placeholder's colour, as Mantine draws a placeholder: dimmer than a chosen
      // value and still 4.5:1 in every theme (`readableVariables`, the bright theme's); in the
      // error's red when refused.
      styles={value || error ? undefined : { input: { color: 'var(--mantine-color-placeholder)' } }}
    >
      <option value="" disabled>
        {placeholder}
      </option>
      {data.map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.label}
        </option>
      ))}
    </InputBase>
  );
}
