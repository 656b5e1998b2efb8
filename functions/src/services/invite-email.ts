/** What an invite email says: the school, the child (first name, last initial), the link and its last day. */
export interface InviteEmailInput {
  schoolName: string;
  /** The school's time zone: the link's last day is a day of the school's calendar. */
  timeZone: string;
  firstName: string;
  lastInitial: string;
  guardianName: string | null;
  url: string;
  expiresAt: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * English then Spanish in one message (the school does not know the family's
 * language): plain text, and its HTML twin with the link linked.
 */
const bilingual = (en: readonly string[], es: readonly string[], url: string) => {
  const text = `${en.join('\n\n')}\n\n— Español —\n\n${es.join('\n\n')}\n`;
  const paragraphs = (lines: readonly string[], lang: string) =>
    `<div lang="${lang}">${lines
      .map((line) =>
        line === url
          ? `<p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`
          : `<p>${escapeHtml(line)}</p>`,
      )
      .join('')}</div>`;
  const html = `<!doctype html><html><body>${paragraphs(en, 'en')}<hr>${paragraphs(es, 'es')}</body></html>`;
  return { text, html };
};

const dayIn = (locale: string, iso: string, timeZone: string) =>
  new Intl.DateTimeFormat(locale, { timeZone, dateStyle: 'long' }).format(new Date(iso));

/**
 * The invite email: English then Spanish in one message (the school does not
 * know the family's language), plain text with an HTML twin. The link is the
 * whole of the invite: it is shown in full as well as linked, so a mail
 * program that strips links still lets the parent copy it.
 */
export const inviteEmail = (input: InviteEmailInput): { subject: string; text: string; html: string } => {
  const child = `${input.firstName} ${input.lastInitial}.`;
  const school = input.schoolName || 'your school';
  const escuela = input.schoolName || 'su escuela';
  const until = {
    en: dayIn('en-US', input.expiresAt, input.timeZone),
    es: dayIn('es-US', input.expiresAt, input.timeZone),
  };
  const hello = {
    en: input.guardianName ? `Hello ${input.guardianName},` : 'Hello,',
    es: input.guardianName ? `Hola ${input.guardianName}:` : 'Hola:',
  };
  const subject = `${school}: follow ${child}'s pickup with Curbside / Siga la salida de ${child} con Curbside`;
  const en = [
    hello.en,
    `${school} invites you to follow ${child}'s pickup on your phone with Curbside: where your car is in the line, and when your child is ready.`,
    'Open this link to create your parent account (or sign in) and add your child:',
    input.url,
    `The link works once and is valid for 30 days (until ${until.en}). If it has expired, ask the school for a new one.`,
  ];
  const es = [
    hello.es,
    `${escuela} le invita a seguir la salida de ${child} desde su teléfono con Curbside: dónde está su auto en la fila y cuándo su hijo o hija está listo.`,
    'Abra este enlace para crear su cuenta de padre o madre (o iniciar sesión) y agregar a su hijo o hija:',
    input.url,
    `El enlace funciona una sola vez y es válido por 30 días (hasta el ${until.es}). Si ya venció, pida uno nuevo a la escuela.`,
  ];
  return { subject, ...bilingual(en, es, input.url) };
};

/** What a password-reset email says: whose account (name, username), the link and until when it works. */
export interface PasswordResetEmailInput {
  name: string | null;
  username: string;
  url: string;
  expiresAt: string;
  /** The zone the link's last minute is told in. */
  timeZone: string;
}

const timeIn = (locale: string, iso: string, timeZone: string) =>
  new Intl.DateTimeFormat(locale, { timeZone, timeStyle: 'short' }).format(new Date(iso));

/**
 * A parent's password-reset email (issue 50): English then Spanish, as the
 * invites are, plain text with an HTML twin; the link shown in full. It names
 * the account (a family may share one address) and says the link works once,
 * for an hour, and that nothing changes if nobody asked for it.
 */
export const passwordResetEmail = (
  input: PasswordResetEmailInput,
): { subject: string; text: string; html: string } => {
  const until = {
    en: timeIn('en-US', input.expiresAt, input.timeZone),
    es: timeIn('es-US', input.expiresAt, input.timeZone),
  };
  const hello = {
    en: input.name ? `Hello ${input.name},` : 'Hello,',
    es: input.name ? `Hola ${input.name}:` : 'Hola:',
  };
  const subject = 'Choose a new Curbside password / Elija una nueva contraseña de Curbside';
  const en = [
    hello.en,
    `Someone asked to choose a new password for the Curbside parent account "${input.username}".`,
    'Open this link to choose it:',
    input.url,
    `The link works once, for 1 hour (until ${until.en}). If you did not ask for it, ignore this email: your password stays as it is.`,
  ];
  const es = [
    hello.es,
    `Alguien pidió elegir una nueva contraseña para la cuenta de padre o madre de Curbside "${input.username}".`,
    'Abra este enlace para elegirla:',
    input.url,
    `El enlace funciona una sola vez, durante 1 hora (hasta las ${until.es}). Si usted no lo pidió, ignore este correo: su contraseña no cambia.`,
  ];
  return { subject, ...bilingual(en, es, input.url) };
};
