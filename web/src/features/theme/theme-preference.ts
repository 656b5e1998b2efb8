import { useSyncExternalStore } from 'react';

/** The theme choices: Light, Dark, Bright (high contrast for sunlight) or the device's setting. */
export const THEME_PREFERENCES = ['light', 'dark', 'bright', 'system'] as const;
export type ThemePreference = (typeof THEME_PREFERENCES)[number];

export const THEME_LABEL: Readonly<Record<ThemePreference, string>> = {
  light: 'Light',
  dark: 'Dark',
  bright: 'Bright',
  system: 'System',
};

/** The one local storage key that holds the theme preference; light when absent. */
export const THEME_STORAGE_KEY = 'curbside-theme';
const DEFAULT_THEME: ThemePreference = 'light';

const isPreference = (value: unknown): value is ThemePreference =>
  typeof value === 'string' && (THEME_PREFERENCES as readonly string[]).includes(value);

const read = (): ThemePreference => {
  try {
    const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
    return isPreference(stored) ? stored : DEFAULT_THEME;
  } catch {
    return DEFAULT_THEME;
  }
};

const listeners = new Set<() => void>();
let current: ThemePreference = typeof window === 'undefined' ? DEFAULT_THEME : read();

const notify = () => {
  for (const listener of listeners) listener();
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  // Another tab changed the theme.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== THEME_STORAGE_KEY) return;
    current = read();
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
};

/** Stores the preference and re-renders every reader. */
export const setThemePreference = (preference: ThemePreference) => {
  current = preference;
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, preference);
  } catch {
    // Private mode or storage full: the choice lasts until the page reloads.
  }
  notify();
};

/** `[preference, setPreference]`, shared by the header menu and the settings page. */
export const useThemePreference = () => {
  const preference = useSyncExternalStore(
    subscribe,
    () => current,
    () => DEFAULT_THEME,
  );
  return [preference, setThemePreference] as const;
};
