import {
  type CSSVariablesResolver,
  type MantineColorSchemeManager,
  MantineProvider,
  mergeThemeOverrides,
} from '@mantine/core';
import { useColorScheme } from '@mantine/hooks';
import { type ReactNode, useEffect, useMemo } from 'react';
import { theme } from '../../lib/theme';
import { useThemePreference } from './theme-preference';

/**
 * Bright: the light scheme made for direct sunlight. Pure white background,
 * black text, near-black secondary text and borders, and the darkest primary
 * shade, so every label keeps a very high contrast on a glaring tablet.
 */
const brightTheme = mergeThemeOverrides(theme, {
  primaryShade: { light: 9, dark: 9 },
  black: '#000000',
  white: '#ffffff',
});

const brightVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-body': '#ffffff',
    '--mantine-color-text': '#000000',
    '--mantine-color-dimmed': '#212529',
    '--mantine-color-placeholder': '#343a40',
    '--mantine-color-default-border': '#343a40',
    '--mantine-color-default-color': '#000000',
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

  useEffect(() => {
    document.documentElement.dataset.curbsideTheme = preference;
  }, [preference]);

  return (
    <MantineProvider
      theme={bright ? brightTheme : theme}
      forceColorScheme={scheme}
      colorSchemeManager={manager}
      {...(bright ? { cssVariablesResolver: brightVariables } : {})}
    >
      {children}
    </MantineProvider>
  );
}
