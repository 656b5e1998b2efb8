import * as dashboard from './dashboard';
import * as invite from './invite';
import * as server from './server';
import * as signIn from './sign-in';

/**
 * The parent screens' texts. English is the specification's, letter for
 * letter, where it gives one (toasts, validation, statuses, error pages);
 * Spanish follows it. Server messages the parent screens show are translated
 * by their English text (`server`), others are shown as sent.
 *
 * One file per group of screens (sign-in, dashboard, invite) holds both languages of its texts.
 */
export const en = {
  language: 'Language',
  ...signIn.en,
  ...dashboard.en,
  ...invite.en,
  server: {} as Record<string, string>,
};

export type ParentTexts = typeof en;

export const es: ParentTexts = {
  language: 'Idioma',
  ...signIn.es,
  ...dashboard.es,
  ...invite.es,
  server: server.es,
};
