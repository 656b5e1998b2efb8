import { routes } from '@curbside/api';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { api } from '../../lib/api';
import { errorMessage } from '../../lib/http';
import { zipFiles } from '../../lib/zip';
import { downloadText } from '../rosters/download';

/**
 * Export Data (issue 50, item 13): one zip with a folder per school holding
 * its CSV files (students with their way home, classrooms, teachers, parents,
 * vehicles, programs, and the last year's dismissals) — one school from its
 * admin screen, every school of the district from the district's.
 */

/** A name made safe for a file or folder: `Lincoln Elementary` → `lincoln-elementary`. */
export const slugOf = (name: string, fallback: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || fallback;

/** Reads each school's export in turn and downloads them as one zip; answers the file name. */
export const exportSchools = async (
  archiveName: string,
  schools: ReadonlyArray<{ id: number; name: string }>,
  onProgress: (done: number) => void = () => {},
): Promise<string> => {
  const files: Array<{ name: string; text: string }> = [];
  const folders = new Set<string>();
  let day = '';
  for (const [index, school] of schools.entries()) {
    const data = await api(routes.schoolExport, { params: { id: school.id } });
    day = data.to;
    let folder = slugOf(data.schoolName, `school-${school.id}`);
    if (folders.has(folder)) folder = `${folder}-${school.id}`;
    folders.add(folder);
    for (const file of data.files) files.push({ name: `${folder}/${file.name}`, text: file.csv });
    onProgress(index + 1);
  }
  const filename = `${slugOf(archiveName, 'curbside')}-export-${day}.zip`;
  downloadText(filename, zipFiles(files), 'application/zip');
  return filename;
};

/** The export as a button runs it: whether it runs, how far, and a toast when done or failed. */
export const useDataExport = () => {
  const [running, setRunning] = useState<{ done: number; of: number } | null>(null);
  const run = async (archiveName: string, schools: ReadonlyArray<{ id: number; name: string }>) => {
    setRunning({ done: 0, of: schools.length });
    try {
      const filename = await exportSchools(archiveName, schools, (done) =>
        setRunning({ done, of: schools.length }),
      );
      notifications.show({ color: 'green.9', title: 'Export ready', message: `Downloaded ${filename}` });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Export failed', message: errorMessage(error) });
    } finally {
      setRunning(null);
    }
  };
  return { run, running };
};
