import { createTheme } from '@mantine/core';

/**
 * Screens are used outdoors on tablets, often one-handed: large text and touch
 * targets (buttons and inputs at least 50 px high), dark primary shades so
 * white text on filled buttons keeps a high contrast, nothing that needs hover.
 * Component defaults are plain objects rather than `Button.extend(...)`, so the
 * theme does not pull every component into the first chunk.
 */
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 6 },
  autoContrast: true,
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
  },
});
