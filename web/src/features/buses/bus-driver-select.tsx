import { Select } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { type BusFieldProps, FIELD, type Pending } from './bus-driver-field-parts';

/**
 * The driver page's bus list (issue 57): Mantine's Select, loaded apart from the page's first
 * paint (`bus-driver-field.tsx` draws a field that looks the same until it comes). On its first
 * draw it takes over what the driver did to that field meanwhile: the focus, and the tap or the
 * keys the Select answers (opening the list, moving in it), in order, so none is lost.
 */
export default function BusSelect({
  pending,
  ...props
}: BusFieldProps & {
  /** What the driver did to the look-alike: whether it held the focus, and the taps and keys. */
  pending: () => Pending;
}) {
  const input = useRef<HTMLInputElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on the first draw
  useEffect(() => {
    const target = input.current;
    if (!target) return;
    const { focused, events } = pending();
    if (focused) target.focus();
    for (const event of events) {
      if (event === 'click') target.click();
      else target.dispatchEvent(new KeyboardEvent('keydown', { ...event, bubbles: true, cancelable: true }));
    }
  }, []);
  return (
    <Select
      ref={input}
      label={FIELD.label}
      placeholder={FIELD.placeholder}
      data={props.options}
      value={props.busId}
      onChange={props.onChange}
      disabled={props.disabled}
      size="lg"
      allowDeselect={false}
    />
  );
}
