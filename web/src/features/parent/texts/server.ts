/**
 * The server's messages the parent screens show, in Spanish, by their English text (English
 * shows them as sent).
 */
export const es: Record<string, string> = {
  'Invalid or expired code': 'Código no válido o vencido',
  'This pickup code has already been used': 'Este código de recogida ya se usó',
  'This pickup code has expired': 'Este código de recogida se venció',
  'Too many invalid codes. Please wait 10 minutes and try again.':
    'Demasiados códigos no válidos. Espere 10 minutos e intente de nuevo.',
  'Too many invalid codes have been tried recently. Please try again later.':
    'Se han probado demasiados códigos no válidos. Intente más tarde.',
  'This invite has already been used. Please ask the school for a new one.':
    'Esta invitación ya se usó. Pida una nueva a la escuela.',
  'This invite was withdrawn by the school. Please ask the school for a new one.':
    'La escuela retiró esta invitación. Pida una nueva a la escuela.',
  'This invite has expired. Please ask the school for a new one.':
    'Esta invitación se venció. Pida una nueva a la escuela.',
  'This invite link is not valid.': 'Este enlace de invitación no es válido.',
  'Too many invalid invites. Please wait 10 minutes and try again.':
    'Demasiadas invitaciones no válidas. Espere 10 minutos e intente de nuevo.',
  'Invalid username or password': 'Usuario o contraseña incorrectos',
  'Current password is incorrect': 'La contraseña actual no es correcta',
  'This one-time password has expired. Ask your school for a new one.':
    'Esta contraseña de un solo uso se venció. Pida una nueva a la escuela.',
  'Name is required': 'El nombre es obligatorio',
  'Name is too long': 'El nombre es demasiado largo',
  'Relationship is too long': 'El parentesco es demasiado largo',
  'Phone number is too long': 'El número de teléfono es demasiado largo',
  'Date must be YYYY-MM-DD': 'La fecha debe ser AAAA-MM-DD',
  'Date is not valid': 'La fecha no es válida',
  'The date is in the past': 'La fecha ya pasó',
  'At most 20 people can be allowed to pick up one child':
    'Se permite un máximo de 20 personas para recoger a un niño',
  'Student not found': 'No se encontró al estudiante',
  'Choose today or a later day': 'Elija hoy o un día posterior',
  'Choose a school day (Monday to Friday)': 'Elija un día de clases (de lunes a viernes)',
  'Choose a day within the next year': 'Elija un día dentro del próximo año',
  'That bus is not one of the school’s buses': 'Ese autobús no es de la escuela',
  'That program is not offered by the school': 'La escuela no ofrece ese programa',
  'That program is no longer offered': 'Ese programa ya no se ofrece',
  'Change not found': 'No se encontró el cambio',
  'This change was already cancelled': 'Este cambio ya se canceló',
  'This change is over': 'Este cambio ya terminó',
  'This change was decided or cancelled meanwhile': 'Este cambio se decidió o canceló mientras tanto',
  'Authorized pickup not found': 'No se encontró a esta persona',
  'Password must be at least 8 characters': 'La contraseña debe tener al menos 8 caracteres',
  'This password is too common. Choose one that is harder to guess.':
    'Esta contraseña es demasiado común. Elija una más difícil de adivinar.',
  'This link does not work any more. Ask for a new one.': 'Este enlace ya no funciona. Pida uno nuevo.',
  'Valid email is required': 'Se necesita un correo electrónico válido',
  'Too many accounts were registered from here. Please try again later.':
    'Se registraron demasiadas cuentas desde aquí. Intente más tarde.',
  'Pickup has not started yet': 'La salida todavía no empezó',
  'This school does not take arrival announcements': 'Esta escuela no recibe avisos de llegada',
  'Share your location to announce that you are here': 'Comparta su ubicación para avisar que llegó',
  'None of your children goes home by car today. Please call the school office.':
    'Ninguno de sus hijos se va en auto hoy. Llame a la oficina de la escuela.',
  'Too many announcements. Please wait a few minutes and try again.':
    'Demasiados avisos. Espere unos minutos e intente de nuevo.',
};
