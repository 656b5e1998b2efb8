import { useTranslation } from 'react-i18next';
import { i18next, startI18n } from '../../lib/i18n';
import { en, es } from './texts';

/** Starts the app's i18n with the parent screens' texts (the parent routes await it before they render). */
export const startParentTexts = () => startI18n({ en: { parent: en }, es: { parent: es } });

/** `t` over the parent texts, and the language on screen. */
export const useParentTexts = () => {
  const { t, i18n } = useTranslation('parent');
  const language = i18n.resolvedLanguage ?? 'en';
  /** A server message in the screen's language when it is one the parent screens know. */
  const serverText = (message: string) =>
    (i18next.getResource(language, 'parent', 'server') as Record<string, string> | undefined)?.[message] ??
    message;
  return { t, language, serverText, setLanguage: (code: string) => i18n.changeLanguage(code) };
};
