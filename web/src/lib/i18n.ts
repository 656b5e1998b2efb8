import i18next, { type Resource } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';

/** The languages the app speaks; English is the specification's own text. */
export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'es', label: 'Español' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

/** Where the chosen language is remembered on the device. */
export const LANGUAGE_KEY = 'curbside.language';

let started: Promise<typeof i18next> | undefined;

/**
 * Starts i18next once with the given namespaces' texts (each screen group
 * brings its own: `parent` today; the staff screens can add theirs the same
 * way). The language comes from the device's remembered choice, else the
 * browser's languages, else English; a change is remembered and sets
 * `<html lang>`. Loaded only by the screens that use it, so the staff
 * screens' first load does not carry it.
 */
export const startI18n = (resources: Resource): Promise<typeof i18next> => {
  if (started) {
    for (const [language, namespaces] of Object.entries(resources)) {
      for (const [namespace, texts] of Object.entries(namespaces)) {
        if (!i18next.hasResourceBundle(language, namespace)) {
          i18next.addResourceBundle(language, namespace, texts);
        }
      }
    }
    return started;
  }
  i18next.on('languageChanged', (language) => {
    document.documentElement.lang = language;
  });
  started = i18next
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      resources,
      supportedLngs: LANGUAGES.map((language) => language.code),
      nonExplicitSupportedLngs: true,
      load: 'languageOnly',
      fallbackLng: 'en',
      interpolation: { escapeValue: false },
      returnNull: false,
      detection: {
        order: ['localStorage', 'navigator'],
        lookupLocalStorage: LANGUAGE_KEY,
        caches: ['localStorage'],
      },
      react: { useSuspense: false },
    })
    .then(() => i18next);
  return started;
};

export { i18next };
