import {
  type CSSVariablesResolver,
  type MantineColorSchemeManager,
  MantineProvider,
  mergeThemeOverrides,
} from '@mantine/core';
import { useColorScheme } from '@mantine/hooks';
import { type ReactNode, useEffect, useMemo } from 'react';
import { readableVariables, theme } from '../../lib/theme';
import './bright.css';
import { useThemePreference } from './theme-preference';

/**
 * Bright: a light scheme made for direct sunlight. Pure white background,
 * black text and borders, the darkest shades for everything filled (white on
 * them at least 7:1, WCAG AAA) and type about 12% larger and heavier
 * (bright.css), so a tablet stays readable in glare.
 */
const brightTheme = mergeThemeOverrides(theme, {
  primaryShade: { light: 9, dark: 9 },
  black: '#000000',
  white: '#ffffff',
  fontSizes: { xs: '1rem', sm: '1.125rem', md: '1.25rem', lg: '1.375rem', xl: '1.625rem' },
  headings: {
    fontWeight: '900',
    sizes: {
      h1: { fontSize: '2.5rem', lineHeight: '1.2' },
      h2: { fontSize: '1.875rem', lineHeight: '1.25' },
      h3: { fontSize: '1.5rem', lineHeight: '1.3' },
    },
  },
});

const brightVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-body': '#ffffff',
    '--mantine-color-text': '#000000',
    '--mantine-color-dimmed': '#1f1f1f',
    '--mantine-color-placeholder': '#3d3d3d',
    '--mantine-color-default-border': '#000000',
    '--mantine-color-default-color': '#000000',
    '--mantine-color-anchor': 'var(--mantine-color-blue-9)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {},
});

/**
 * The preference lives in our own storage key, so Mantine's manager only
 * reports it and never writes a second key.
 */
const managerFor = (scheme: 'light' | 'dark'): MantineColorSchemeManager => ({
  get: () => scheme,
  set: () => {},
  subscribe: () => {},
  unsubscribe: () => {},
  clear: () => {},
});

/** MantineProvider with the colour scheme and theme of the stored preference. */
export function AppThemeProvider({ children }: { children: ReactNode }) {
  const [preference] = useThemePreference();
  const system = useColorScheme('light', { getInitialValueInEffect: false });
  const scheme = preference === 'dark' || (preference === 'system' && system === 'dark') ? 'dark' : 'light';
  const bright = preference === 'bright';
  const manager = useMemo(() => managerFor(scheme), [scheme]);

  // bright.css keys on it.
  useEffect(() => {
    document.documentElement.dataset.curbsideTheme = preference;
  }, [preference]);

  return (
    <MantineProvider
      theme={bright ? brightTheme : theme}
      forceColorScheme={scheme}
      colorSchemeManager={manager}
      cssVariablesResolver={bright ? brightVariables : readableVariables}
    >
      {children}
    </MantineProvider>
  );
}
