/**
 * Text colours that keep a high contrast outdoors in light and dark schemes
 * (Mantine sets `color-scheme`, so `light-dark()` follows the chosen theme).
 */
export const MUTED_TEXT = 'light-dark(var(--mantine-color-gray-8), var(--mantine-color-dark-1))';
export const DANGER_TEXT = 'light-dark(var(--mantine-color-red-9), var(--mantine-color-red-4))';
export const BORDER = 'var(--mantine-color-default-border)';
