import type { NewInviteView } from '@curbside/domain';
import { memo } from 'react';
import classes from './letters.module.css';
import { QrSvg } from './qr-svg';

// One formatter per language for every letter (a formatter per call is slow at 2,000 letters).
const LONG_DATE = {
  en: new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric' }),
  es: new Intl.DateTimeFormat('es-US', { year: 'numeric', month: 'long', day: 'numeric' }),
};
const longDate = (iso: string, language: keyof typeof LONG_DATE) =>
  LONG_DATE[language].format(Date.parse(iso));

/**
 * One family's invitation letter: the school, the child and classroom, the
 * QR code of the invite link and the link itself, in English and in Spanish.
 */
export const InviteLetter = memo(function InviteLetter({
  invite,
  schoolName,
}: {
  invite: NewInviteView;
  schoolName: string;
}) {
  const { student } = invite;
  const child = `${student.firstName} ${student.lastName}`;
  const first = student.firstName;
  const room = student.classroom ?? '—';
  return (
    <article className={classes.letter} aria-label={`Letter for ${child}`} data-invite-id={invite.id}>
      <header>
        <p className={classes.school}>{schoolName}</p>
        <h2 className={classes.child}>{child}</h2>
        <p className={classes.meta}>
          Classroom / <span lang="es">Salón</span>: {room} · Grade / <span lang="es">Grado</span>:{' '}
          {student.grade}
        </p>
        {invite.guardianName && (
          <p className={classes.meta}>
            For / <span lang="es">Para</span>: {invite.guardianName}
          </p>
        )}
      </header>
      <div className={classes.columns}>
        <section lang="en">
          <h3>Follow {first}’s pickup on your phone</h3>
          <p>
            {schoolName} uses Curbside for afternoon pickup. See live on your phone when {first} is called.
          </p>
          <ol>
            <li>Scan the QR code with your phone’s camera, or type the link.</li>
            <li>Create your account, or sign in if you have one.</li>
            <li>Your account then shows {first}.</li>
          </ol>
          <p className={classes.small}>
            This link is for your family only and works once. It expires on {longDate(invite.expiresAt, 'en')}
            .
          </p>
        </section>
        <section lang="es">
          <h3>Siga la recogida de {first} en su teléfono</h3>
          <p>
            {schoolName} usa Curbside para la recogida de la tarde. Vea en vivo en su teléfono cuándo llaman a{' '}
            {first}.
          </p>
          <ol>
            <li>Escanee el código QR con la cámara de su teléfono, o escriba el enlace.</li>
            <li>Cree su cuenta, o inicie sesión si ya tiene una.</li>
            <li>Su cuenta mostrará a {first}.</li>
          </ol>
          <p className={classes.small}>
            Este enlace es solo para su familia y funciona una vez. Vence el{' '}
            {longDate(invite.expiresAt, 'es')}.
          </p>
        </section>
      </div>
      <div className={classes.scan}>
        <QrSvg text={invite.url} label={`QR code of the invite link for ${child}`} className={classes.qr} />
        <div>
          <p className={classes.small}>
            Scan with your phone’s camera · <span lang="es">Escanee con la cámara de su teléfono</span>
          </p>
          <p className={classes.small}>
            Or type this link · <span lang="es">O escriba este enlace</span>:
          </p>
          <p className={classes.link}>{invite.url}</p>
        </div>
      </div>
    </article>
  );
});
