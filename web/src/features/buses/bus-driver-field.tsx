import { InputBase } from '@mantine/core';
import { type ComponentType, startTransition, useCallback, useEffect, useRef, useState } from 'react';

import { afterPaintWhenIdle } from '../../lib/after-paint';
import { type BusFieldProps, FIELD, type Pending, type PendingKey } from './bus-driver-field-parts';

type BusSelect = ComponentType<BusFieldProps & { pending: () => Pending }>;

/** The keys Mantine's Select answers on its closed field (its Combobox target's): they open the list. */
const SELECT_KEYS = new Set(['ArrowDown', 'ArrowUp', 'Enter', 'NumpadEnter', 'Space']);

/** The Select's module (with its two chunks, `popover-kit` and `select-kit`, and their stylesheets), asked for once. */
let loaded: BusSelect | undefined;
let loading: Promise<BusSelect> | undefined;
const loadSelect = () => {
  loading ??= import('./bus-driver-select').then(
    (module) => {
      loaded = module.default;
      return loaded;
    },
    (error: unknown) => {
      // Asked again on the driver's next tap (a phone that lost its connection for a moment).
      loading = undefined;
      throw error;
    },
  );
  return loading;
};

/** Mantine's Combobox chevron (`ComboboxChevron`, size lg), as the Select draws it. */
const CHEVRON = (
  <svg
    viewBox="0 0 15 15"
    fill="none"
    aria-hidden="true"
    style={{
      width: 24,
      height: 24,
      color: 'light-dark(var(--mantine-color-gray-6), var(--mantine-color-dark-3))',
    }}
  >
    <path
      d="M4.93179 5.43179C4.75605 5.60753 4.75605 5.89245 4.93179 6.06819C5.10753 6.24392 5.39245 6.24392 5.56819 6.06819L7.49999 4.13638L9.43179 6.06819C9.60753 6.24392 9.89245 6.24392 10.0682 6.06819C10.2439 5.89245 10.2439 5.60753 10.0682 5.43179L7.81819 3.18179C7.73379 3.0974 7.61933 3.04999 7.49999 3.04999C7.38064 3.04999 7.26618 3.0974 7.18179 3.18179L4.93179 5.43179ZM10.0682 9.56819C10.2439 9.39245 10.2439 9.10753 10.0682 8.93179C9.89245 8.75606 9.60753 8.75606 9.43179 8.93179L7.49999 10.8636L5.56819 8.93179C5.39245 8.75606 5.10753 8.75606 4.93179 8.93179C4.75605 9.10753 4.75605 9.39245 4.93179 9.56819L7.18179 11.8182C7.35753 11.9939 7.64245 11.9939 7.81819 11.8182L10.0682 9.56819Z"
      fill="currentColor"
      fillRule="evenodd"
      clipRule="evenodd"
    />
  </svg>
);

/**
 * The driver page's bus field (issue 57). Mantine's Select and its floating list (two chunks and
 * two stylesheets, a third of the page's bytes after the entry) are needed only once the driver
 * opens the list: until they come, the field is drawn as the closed Select draws it (the same
 * label, placeholder, value, chevron, role and name), and the page's first paint waits for none
 * of them. They are asked for after that paint, once the browser is idle, or at once when the
 * driver focuses, taps or presses a key on the field; the Select then takes its place and takes
 * over the focus and the taps and keys it was given meanwhile (`bus-driver-select.tsx`). A press
 * still under the driver's finger keeps the field until it ends, so the tap reaches one of them.
 */
export function BusField(props: BusFieldProps) {
  const [Select, setSelect] = useState<BusSelect | undefined>(() => loaded);
  const [failed, setFailed] = useState(false);
  const [pressing, setPressing] = useState(false);
  const pending = useRef<Pending>({ focused: false, events: [] });

  /** `asked`: the driver is waiting for the list (an error says it did not come). */
  const load = useCallback((asked: boolean) => {
    loadSelect().then(
      (component) => {
        setFailed(false);
        if (asked) setSelect(() => component);
        else startTransition(() => setSelect(() => component));
      },
      () => asked && setFailed(true),
    );
  }, []);

  // After the page's paint, once the browser is idle: in place before the driver's first tap.
  useEffect(() => {
    if (loaded) return;
    return afterPaintWhenIdle(() => load(false));
  }, [load]);

  // Whether the field held the focus when the Select took its place (read as it leaves the page).
  const lookAlike = useCallback((node: HTMLInputElement | null) => {
    if (!node) return;
    return () => {
      pending.current.focused = document.activeElement === node;
    };
  }, []);

  const take = useCallback(() => {
    const taken = { ...pending.current };
    pending.current = { focused: false, events: [] };
    return taken;
  }, []);

  if (Select && !pressing) return <Select {...props} pending={take} />;

  const ask = (event: 'click' | PendingKey) => {
    pending.current.events.push(event);
    load(true);
  };
  return (
    <InputBase
      ref={lookAlike}
      label={FIELD.label}
      placeholder={FIELD.placeholder}
      value={props.options.find((option) => option.value === props.busId)?.label ?? ''}
      disabled={props.disabled}
      size="lg"
      readOnly
      pointer
      rightSection={CHEVRON}
      rightSectionPointerEvents="none"
      aria-haspopup="listbox"
      autoComplete="off"
      error={failed ? 'The bus list did not load. Check the connection and tap again.' : undefined}
      onFocus={() => load(true)}
      onPointerDown={() => {
        setPressing(true);
        load(true);
        // The click comes after the press ends, in the same task: the field stays until then.
        const press = new AbortController();
        const release = () => {
          press.abort();
          window.setTimeout(() => setPressing(false), 0);
        };
        window.addEventListener('pointerup', release, { signal: press.signal });
        window.addEventListener('pointercancel', release, { signal: press.signal });
      }}
      onClick={() => ask('click')}
      onKeyDown={(event) => {
        const { code, isComposing } = event.nativeEvent;
        if (isComposing || !SELECT_KEYS.has(code)) return;
        // The page would scroll on Space or an arrow; the Select, once here, does what the key asks.
        event.preventDefault();
        ask({ key: event.key, code });
      }}
    />
  );
}
