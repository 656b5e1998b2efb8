import { useMemo } from 'react';
import { changeLanguage, resourceOf, startI18n, type Texts, translator, useLanguage } from '../../lib/i18n';
import { en, es } from './texts';

/** Starts the app's texts with the parent screens' (the parent routes await it before they render). */
export const startParentTexts = () => startI18n({ en: { parent: en as Texts }, es: { parent: es as Texts } });

/** `t` over the parent texts, and the language on screen (`t` and `serverText` change only with it). */
export const useParentTexts = () => {
  const language = useLanguage();
  return useMemo(() => {
    const server = resourceOf(language, 'parent', 'server');
    return {
      t: translator('parent', language),
      language,
      /** A server message in the screen's language when it is one the parent screens know. */
      serverText: (message: string) =>
        (typeof server === 'object' && typeof server[message] === 'string' ? server[message] : undefined) ??
        message,
      setLanguage: changeLanguage,
    };
  }, [language]);
};
