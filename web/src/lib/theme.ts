import {
  type CSSVariablesResolver,
  createTheme,
  DEFAULT_THEME,
  type MantineColorsTuple,
} from '@mantine/core';

/**
 * Mantine's palettes with darker 7–9 shades for the colours that carry white
 * text (filled buttons, badges) or sit as text on pale backgrounds: with the
 * stock shades white on green 9 is 4.37:1, on orange 9 4.30:1 and on blue 6
 * (the dark scheme's buttons) 3.56:1, below WCAG AA. With these, white on
 * shade 7 is at least 5.2:1, on shade 8 at least 6.1:1 and on shade 9 at
 * least 7.3:1 (WCAG AAA, used by the Bright theme).
 */
const deepened = (name: 'blue' | 'green' | 'orange' | 'red', dark: [string, string, string]) =>
  [...DEFAULT_THEME.colors[name].slice(0, 7), ...dark] as unknown as MantineColorsTuple;

export const palettes = {
  blue: deepened('blue', ['#1864ab', '#145a9c', '#0f4f8c']),
  green: deepened('green', ['#237a36', '#1e6b2f', '#1a5e2a']),
  orange: deepened('orange', ['#c2410c', '#b03a0a', '#9a3412']),
  red: deepened('red', ['#c92a2a', '#b02525', '#a61e1e']),
};

/**
 * Screens are used outdoors on tablets, often one-handed: large text and touch
 * targets (buttons and inputs at least 50 px high), dark primary shades so
 * white text on filled buttons keeps a high contrast, nothing that needs hover.
 * Component defaults are plain objects rather than `Button.extend(...)`, so the
 * theme does not pull every component into the first chunk.
 */
export const theme = createTheme({
  colors: palettes,
  primaryColor: 'blue',
  primaryShade: { light: 7, dark: 8 },
  autoContrast: true,
  // Someone who asked their device for less motion gets dialogs, menus and toasts without it.
  respectReducedMotion: true,
  luminanceThreshold: 0.4,
  defaultRadius: 'md',
  cursorType: 'pointer',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  fontSizes: { xs: '0.875rem', sm: '1rem', md: '1.125rem', lg: '1.25rem', xl: '1.5rem' },
  lineHeights: { md: '1.5' },
  headings: {
    fontWeight: '800',
    sizes: {
      h1: { fontSize: '2.25rem', lineHeight: '1.2' },
      h2: { fontSize: '1.75rem', lineHeight: '1.25' },
      h3: { fontSize: '1.375rem', lineHeight: '1.3' },
    },
  },
  components: {
    Button: { defaultProps: { size: 'lg' } },
    ActionIcon: { defaultProps: { size: 'xl' } },
    TextInput: { defaultProps: { size: 'lg' } },
    PasswordInput: { defaultProps: { size: 'lg' } },
    Select: { defaultProps: { size: 'lg' } },
    NativeSelect: { defaultProps: { size: 'lg' } },
    Textarea: { defaultProps: { size: 'lg' } },
    SegmentedControl: { defaultProps: { size: 'lg' } },
    Card: { defaultProps: { withBorder: true, shadow: 'sm', padding: 'xl', radius: 'lg' } },
    // A spinner's name (`aria-label="Loading queue"`) needs a role to be read: an indeterminate
    // progress bar (axe's aria-prohibited-attr, seen on the back queue while its lists load).
    Loader: { defaultProps: { role: 'progressbar' } },
    // A dialog's close button (an icon) needs a name for screen readers.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    // A menu holds menu items only: Mantine's focus placeholder (a bare div with a tabindex)
    // broke that (axe's aria-required-children, critical, on the car's ⋮ menu). The first item
    // takes the focus instead.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    // Toasts read at arm's length outdoors: body-size text in the text colour, a bold title.
    Notification: {
      defaultProps: { withBorder: true, radius: 'md', closeButtonProps: { 'aria-label': 'Close' } },
      styles: {
        title: {
          fontSize: 'var(--mantine-font-size-lg)',
          fontWeight: 800,
          color: 'var(--mantine-color-text)',
        },
        description: { fontSize: 'var(--mantine-font-size-md)', color: 'var(--mantine-color-text)' },
      },
    },
  },
});

/**
 * Secondary ("dimmed") text, placeholders and field errors readable at WCAG AA
 * on the page and on cards (Mantine's own grey is 3.3:1 on white and 4.0:1 on
 * dark; its error red 3.3:1 on white). In the dark scheme a disabled control
 * keeps the shape of a control: Mantine fills it with dark 6, the colour of
 * a card, where a disabled button read as grey text.
 */
export const readableVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': '#676e75',
    '--mantine-color-error': 'var(--mantine-color-red-8)',
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-placeholder': 'var(--mantine-color-dark-1)',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
    '--mantine-color-disabled': 'var(--mantine-color-dark-5)',
    '--mantine-color-disabled-color': 'var(--mantine-color-dark-2)',
    '--mantine-color-disabled-border': 'var(--mantine-color-dark-3)',
  },
});

/**
 * Text colours that keep a high contrast outdoors in light and dark schemes
 * (Mantine sets `color-scheme`, so `light-dark()` follows the chosen theme).
 */
export const MUTED_TEXT = 'light-dark(var(--mantine-color-gray-8), var(--mantine-color-dark-1))';
export const DANGER_TEXT = 'light-dark(var(--mantine-color-red-9), var(--mantine-color-red-4))';
export const SUCCESS_TEXT = 'light-dark(var(--mantine-color-green-9), var(--mantine-color-green-4))';
export const BORDER = 'var(--mantine-color-default-border)';
