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
  const text = `${en.join('\n\n')}\n\n— Español —\n\n${es.join('\n\n')}\n`;
  const paragraphs = (lines: string[], lang: string) =>
    `<div lang="${lang}">${lines
      .map((line) =>
        line === input.url
          ? `<p><a href="${escapeHtml(input.url)}">${escapeHtml(input.url)}</a></p>`
          : `<p>${escapeHtml(line)}</p>`,
      )
      .join('')}</div>`;
  const html = `<!doctype html><html><body>${paragraphs(en, 'en')}<hr>${paragraphs(es, 'es')}</body></html>`;
  return { subject, text, html };
};
