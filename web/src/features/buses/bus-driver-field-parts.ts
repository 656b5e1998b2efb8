/**
 * What the driver page's bus field (`bus-driver-field.tsx`) and the Select it loads after the
 * first paint (`bus-driver-select.tsx`) share: apart, so that neither imports the other.
 */

/** The bus field's texts (specification §2 "Bus driver page"), the same on both of its forms. */
export const FIELD = { label: 'Select Bus', placeholder: 'Choose your bus' } as const;

export interface BusFieldProps {
  options: Array<{ value: string; label: string }>;
  busId: string | null;
  onChange: (busId: string | null) => void;
  disabled: boolean;
}

/** A key the driver pressed on the field before the list's code came (`code` as the Select reads it). */
export type PendingKey = { key: string; code: string };
/** What the driver did to the field before the list's code came, for the Select to take over. */
export interface Pending {
  focused: boolean;
  events: Array<'click' | PendingKey>;
}
