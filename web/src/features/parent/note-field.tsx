import { InputBase } from '@mantine/core';
import { type ChangeEvent, type ReactNode, useLayoutEffect, useRef } from 'react';

/** Whether the browser sizes a field to its content (CSS `field-sizing`). */
const SIZES_ITSELF = typeof CSS !== 'undefined' && CSS.supports('field-sizing', 'content');

/** Two lines at least, grown with what is typed where the browser does it. */
const GROWS = {
  input: {
    fieldSizing: 'content' as const,
    minHeight: 'calc(2lh + 2 * var(--input-padding-y, 0px) + 2px)',
  },
};

/**
 * The change form's note: the browser's own textarea drawn as Mantine's `Textarea` draws it
 * (its `InputBase`, `multiline`, the `Textarea` class names), two lines tall and grown with what
 * is typed. Issue 57 (h57j): Mantine's `Textarea` imports its autosize (react-textarea-autosize
 * and Babel's helpers: two chunks the dashboard's first paint waited for) even where it is not
 * used. Where the browser sizes a field to its content (CSS `field-sizing`), it does so and
 * nothing is measured; elsewhere the note is measured after each change (its scroll height), as
 * the autosize did, and nothing is measured while it is empty.
 */
export function NoteField({
  label,
  value,
  onChange,
  error,
  maxLength,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: ReactNode;
  maxLength: number;
}) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const field = ref.current;
    if (SIZES_ITSELF || !field) return;
    field.style.height = '';
    if (value === '') return;
    const borders = field.offsetHeight - field.clientHeight;
    field.style.height = `${Math.max(field.offsetHeight, field.scrollHeight + borders)}px`;
  }, [value]);
  return (
    <InputBase
      component="textarea"
      ref={ref}
      __staticSelector="Textarea"
      multiline
      label={label}
      size="md"
      rows={2}
      maxLength={maxLength}
      styles={SIZES_ITSELF ? GROWS : undefined}
      value={value}
      onChange={(event: ChangeEvent<HTMLTextAreaElement>) => onChange(event.currentTarget.value)}
      error={error}
    />
  );
}
