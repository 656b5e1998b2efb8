import { routes } from '@curbside/api';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** The dismissal's record, read: session lists, reports, a student's pickups, the district's dismissals. */
export const reportQueries = {
  all: ['reports'] as const,
  sessions: (cursor: string | null) =>
    queryOptions({
      queryKey: [...reportQueries.all, 'sessions', cursor] as const,
      queryFn: () => api(routes.listSessions, { query: { cursor: cursor ?? undefined } }),
    }),
  report: (sessionId: number) =>
    queryOptions({
      queryKey: [...reportQueries.all, 'report', sessionId] as const,
      queryFn: () => api(routes.sessionReport, { params: { id: sessionId } }),
    }),
  studentPickups: (studentId: number) =>
    queryOptions({
      queryKey: [...reportQueries.all, 'student', studentId] as const,
      queryFn: () => api(routes.studentPickups, { params: { id: studentId } }),
    }),
  district: (districtId: number, from: string, to: string) =>
    queryOptions({
      queryKey: [...reportQueries.all, 'district', districtId, from, to] as const,
      queryFn: () => api(routes.districtDismissals, { params: { id: districtId }, query: { from, to } }),
    }),
};

/** Where the report's CSV downloads from (a plain link: the browser sends the session cookie). */
export const reportCsvHref = (sessionId: number) => `/api/sessions/${sessionId}/report.csv`;
