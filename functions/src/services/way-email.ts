import { type DayWay, type DismissalChange, type WayOptions, wayText } from '@curbside/domain';

/**
 * The email to the family when the office decides (or cancels) their change
 * of a child's way home (issue 51), in the language of their portal when they
 * asked: plain text with an HTML twin.
 */
export interface WayDecisionEmailInput {
  language: 'en' | 'es';
  schoolName: string;
  childFirstName: string;
  change: Pick<DismissalChange, 'date' | 'until' | 'weekdays' | 'way' | 'reason'>;
  outcome: 'approved' | 'denied' | 'cancelled';
  options: WayOptions;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** How the child goes, as a sentence says it: `walking`, `on Bus B3`, `to Kids Club`, `absent`. */
const wayIn = (language: 'en' | 'es', way: DayWay, options: WayOptions) => {
  const name = wayText(way, options);
  switch (way.mode) {
    case 'car':
      return language === 'es' ? 'en auto' : 'by car';
    case 'walker':
      return language === 'es' ? 'caminando' : 'walking';
    case 'absent':
      return language === 'es' ? 'ausente' : 'absent';
    case 'bus':
      return language === 'es' ? `en el autobús ${name.replace(/^Bus /, '')}` : `on ${name}`;
    case 'program':
      return language === 'es' ? `a ${name}` : `to ${name}`;
  }
};

const dayIn = (language: 'en' | 'es', date: string) =>
  new Intl.DateTimeFormat(language === 'es' ? 'es-US' : 'en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${date}T00:00:00Z`));

const daysIn = (language: 'en' | 'es', change: WayDecisionEmailInput['change']) =>
  change.until === null
    ? `${language === 'es' ? 'el' : 'on'} ${dayIn(language, change.date)}`
    : language === 'es'
      ? `del ${dayIn('es', change.date)} al ${dayIn('es', change.until)}`
      : `from ${dayIn('en', change.date)} to ${dayIn('en', change.until)}`;

export const wayDecisionEmail = (
  input: WayDecisionEmailInput,
): { subject: string; text: string; html: string } => {
  const { language, change } = input;
  const school = input.schoolName || (language === 'es' ? 'La escuela' : 'The school');
  const child = input.childFirstName;
  const way = wayIn(language, change.way, input.options);
  const days = daysIn(language, change);
  const lines =
    language === 'es'
      ? {
          approved: [
            change.way.mode === 'absent'
              ? `${school} aprobó su cambio: ${child} estará ausente ${days}.`
              : `${school} aprobó su cambio: ${child} se irá ${way} ${days}.`,
          ],
          denied: [
            `${school} no aprobó su cambio para ${child} (${way}, ${days}). ${child} se irá como de costumbre.`,
            ...(change.reason ? [`Motivo: ${change.reason}`] : []),
          ],
          cancelled: [
            `${school} canceló el cambio para ${child} (${way}, ${days}). ${child} se irá como de costumbre.`,
          ],
        }
      : {
          approved: [
            change.way.mode === 'absent'
              ? `${school} approved your change: ${child} is absent ${days}.`
              : `${school} approved your change: ${child} goes home ${way} ${days}.`,
          ],
          denied: [
            `${school} did not approve your change for ${child} (${way}, ${days}). ${child} goes home the usual way.`,
            ...(change.reason ? [`Reason: ${change.reason}`] : []),
          ],
          cancelled: [
            `${school} cancelled the change for ${child} (${way}, ${days}). ${child} goes home the usual way.`,
          ],
        };
  const closing =
    language === 'es'
      ? 'Si tiene preguntas, llame a la oficina de la escuela.'
      : 'If you have questions, please call the school office.';
  const body = [...lines[input.outcome], closing];
  const subjects =
    language === 'es'
      ? { approved: 'Cambio aprobado', denied: 'Cambio no aprobado', cancelled: 'Cambio cancelado' }
      : { approved: 'Change approved', denied: 'Change not approved', cancelled: 'Change cancelled' };
  const subject = `${school}: ${subjects[input.outcome]} — ${child}`;
  const text = `${body.join('\n\n')}\n`;
  const html = `<!doctype html><html lang="${language}"><body>${body
    .map((line) => `<p>${escapeHtml(line)}</p>`)
    .join('')}</body></html>`;
  return { subject, text, html };
};
