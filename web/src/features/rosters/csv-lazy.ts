/** CSV text from rows, with the parser loaded only when a file is written. */
export const toCsvText = async (rows: ReadonlyArray<ReadonlyArray<string | number | null | undefined>>) =>
  (await import('@curbside/domain/csv')).toCsv(rows);
