/** The hallway display's labels (issue 32), in English and Spanish. */
export const DISPLAY_TEXTS = {
  en: {
    title: 'Students called for pickup',
    batch: 'Batch',
    noBatch: 'Called',
    car: 'Car line',
    bus: 'Bus line',
    carName: 'Car',
    busName: 'Bus',
    walker: 'Walkers',
    program: 'Program',
    walkersReleased: 'Walkers released',
    page: (page: number, pages: number) => `Page ${page} of ${pages}`,
    empty: 'No students called yet',
    noSession: 'No dismissal running',
    connecting: 'Reconnecting…',
    missingTitle: 'Hallway display',
    missing:
      'This display link is not valid any more. Ask the school admin for the current display link (School Admin screen, Hallway Display).',
    language: 'Español',
  },
  es: {
    title: 'Estudiantes llamados para recoger',
    batch: 'Grupo',
    noBatch: 'Llamados',
    car: 'Fila de autos',
    bus: 'Fila de autobuses',
    carName: 'Auto',
    busName: 'Autobús',
    walker: 'Caminan a casa',
    program: 'Programa',
    walkersReleased: 'Salen caminando',
    page: (page: number, pages: number) => `Página ${page} de ${pages}`,
    empty: 'Todavía no se ha llamado a ningún estudiante',
    noSession: 'No hay salida en curso',
    connecting: 'Reconectando…',
    missingTitle: 'Pantalla del pasillo',
    missing:
      'Este enlace de pantalla ya no es válido. Pida a la administración de la escuela el enlace actual (pantalla de administración, Pantalla del pasillo).',
    language: 'English',
  },
} as const;

export type DisplayLanguage = keyof typeof DISPLAY_TEXTS;

/** `?lang=es`, else the browser's first language, else English. */
export const displayLanguageOf = (search: string, languages: readonly string[]): DisplayLanguage => {
  const asked = new URLSearchParams(search).get('lang');
  if (asked === 'es' || asked === 'en') return asked;
  return languages[0]?.toLowerCase().startsWith('es') ? 'es' : 'en';
};
