import { useSyncExternalStore } from 'react';

/** The languages the app speaks; English is the specification's own text. */
export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'es', label: 'Español' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

/** Where the chosen language is remembered on the device. */
export const LANGUAGE_KEY = 'curbside.language';

/** Texts by key; a value is a text (`{{name}}` fills in a value) or more keys (`login.title`). */
export interface Texts {
  [key: string]: string | Texts;
}
/** Each language's namespaces' texts: `{ en: { parent: {...} }, es: { parent: {...} } }`. */
export type Resources = Partial<Record<Language, Record<string, Texts>>>;

/** `t('login.title')`, `t('invite.title', { name })`: the text in the screen's language. */
export type Translate = (key: string, values?: Record<string, string | number>) => string;

const FALLBACK: Language = 'en';
const resources: Resources = {};
let current: Language | undefined;
const listeners = new Set<() => void>();

const supported = (code: string | null | undefined): Language | undefined => {
  const base = code?.toLowerCase().split('-')[0];
  return LANGUAGES.find((language) => language.code === base)?.code;
};

const remembered = () => {
  try {
    return localStorage.getItem(LANGUAGE_KEY);
  } catch {
    return null;
  }
};

const remember = (language: Language) => {
  try {
    localStorage.setItem(LANGUAGE_KEY, language);
  } catch {
    // A browser that keeps nothing (private mode, storage off): the choice lasts this page.
  }
};

/** The device's remembered choice, else the first of the browser's languages the app speaks, else English. */
const detect = (): Language =>
  supported(remembered()) ??
  (navigator.languages ?? [navigator.language]).map(supported).find((code) => code !== undefined) ??
  FALLBACK;

const use = (language: Language) => {
  current = language;
  remember(language);
  document.documentElement.lang = language;
  for (const listener of listeners) listener();
};

/**
 * Adds the given namespaces' texts (each screen group brings its own: `parent` today; the staff
 * screens can add theirs the same way) and, the first time, picks the language: the device's
 * remembered choice, else the browser's languages, else English; it is remembered and sets
 * `<html lang>`. A few lines of our own rather than i18next (20 KB brotli on a parent's phone):
 * nested keys, `{{value}}` and, with a `count`, the `key_one` / `key_other` forms.
 */
export const startI18n = (added: Resources): Promise<void> => {
  for (const [language, namespaces] of Object.entries(added) as Array<[Language, Record<string, Texts>]>) {
    resources[language] = { ...namespaces, ...resources[language] };
  }
  if (!current) use(detect());
  return Promise.resolve();
};

/** The language on screen (English until `startI18n`). */
export const language = (): Language => current ?? FALLBACK;

/** Switches the language (remembered on the device); screens using `useLanguage` draw again. */
export const changeLanguage = (code: string) => {
  const next = supported(code);
  if (next && next !== current) use(next);
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/** The language on screen, drawn again when it changes. */
export const useLanguage = (): Language => useSyncExternalStore(subscribe, language);

/** The text or texts at `key` (dots go down) in a namespace of a language, if any. */
export const resourceOf = (of: Language, namespace: string, key: string): string | Texts | undefined => {
  let found: string | Texts | undefined = resources[of]?.[namespace];
  for (const part of key.split('.')) {
    if (found === undefined || typeof found === 'string') return undefined;
    found = found[part];
  }
  return found;
};

/** `t` of a namespace in a language: the language's text, else English's, else the key itself. */
export const translator = (namespace: string, of: Language): Translate => {
  const plural = new Intl.PluralRules(of);
  const text = (key: string) => {
    for (const each of [of, FALLBACK]) {
      const found = resourceOf(each, namespace, key);
      if (typeof found === 'string') return found;
    }
    return undefined;
  };
  return (key, values = {}) => {
    const count = values.count;
    const form =
      typeof count === 'number'
        ? (text(`${key}_${plural.select(count)}`) ?? text(`${key}_other`))
        : undefined;
    const found = form ?? text(key) ?? key;
    return found.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
      name in values ? String(values[name]) : whole,
    );
  };
};
