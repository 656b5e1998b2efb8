import { routes } from '@curbside/api';
import type {
  District,
  DistrictEdit,
  DistrictWithSchools,
  districtInputSchema,
  School,
  StaffInput,
  schoolInputSchema,
} from '@curbside/domain';
import { notifications } from '@mantine/notifications';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../lib/api';
import { errorMessage } from '../../lib/http';
import { DISTRICTS_KEY } from '../../lib/query-keys';
import { useLiveEvent } from '../live/live';
import { schoolQueries } from '../schools/schools.queries';

/**
 * Districts (`['districts', …]`): the list a district or super admin sees
 * (each district with its schools), one district, its schools, its staff
 * and its report.
 */
export const districtQueries = {
  all: DISTRICTS_KEY,
  list: () =>
    queryOptions({
      queryKey: [...districtQueries.all, 'list'] as const,
      queryFn: () => api(routes.listDistricts),
    }),
  detail: (id: number) =>
    queryOptions({
      queryKey: [...districtQueries.all, 'detail', id] as const,
      queryFn: () => api(routes.getDistrict, { params: { id } }),
    }),
  schools: (id: number) =>
    queryOptions({
      queryKey: [...districtQueries.all, 'schools', id] as const,
      queryFn: () => api(routes.districtSchools, { params: { id } }),
    }),
  users: (id: number) =>
    queryOptions({
      queryKey: [...districtQueries.all, 'users', id] as const,
      queryFn: () => api(routes.districtUsers, { params: { id } }),
    }),
};

/** The report is read when Generate Report is pressed, not cached. */
export const fetchDistrictReport = (id: number) => api(routes.districtReport, { params: { id } });

const success = (message: string) => notifications.show({ color: 'green.9', title: 'Success', message });
const failure = (error: unknown, fallback: string) =>
  notifications.show({ color: 'red', title: 'Error', message: errorMessage(error) || fallback });

/** Reads districts and schools again: the lists, the header's school and the school screens. */
const useRefreshSchools = () => {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: districtQueries.all }),
      client.invalidateQueries({ queryKey: schoolQueries.all }),
    ]);
};

type DistrictBody = z.input<typeof districtInputSchema>;
type SchoolBody = z.input<typeof schoolInputSchema>;

/** Create District (super admin). Toasts of specification §8 "District and school". */
export const useCreateDistrict = () => {
  const refresh = useRefreshSchools();
  return useMutation({
    mutationFn: (body: DistrictBody) => api(routes.createDistrict, { body }),
    onSuccess: () => success('District created successfully'),
    onError: (error) => failure(error, 'Failed to create district'),
    onSettled: refresh,
  });
};

/** Edit District (issue 50, item 13): its name and the time zone its new schools take. */
export const useUpdateDistrict = (id: number) => {
  const refresh = useRefreshSchools();
  return useMutation({
    mutationFn: (body: DistrictEdit) => api(routes.updateDistrict, { params: { id }, body }),
    onSuccess: () => success('District updated successfully'),
    onSettled: refresh,
  });
};

/** Create School (super admin anywhere, district admin in their district). */
export const useCreateSchool = () => {
  const refresh = useRefreshSchools();
  return useMutation({
    mutationFn: (body: SchoolBody) => api(routes.createSchool, { body }),
    onSuccess: () => success('School created successfully'),
    onError: (error) => failure(error, 'Failed to create school'),
    onSettled: refresh,
  });
};

/**
 * A school's sandbox switch: `PATCH` from the district screen (its errors are
 * only logged, specification §8), `PUT` from the super admin's, with toasts.
 */
export const useSchoolSandbox = (via: 'district' | 'super') => {
  const refresh = useRefreshSchools();
  return useMutation({
    mutationFn: ({ school, sandbox }: { school: School; sandbox: boolean }) =>
      api(via === 'district' ? routes.patchSchoolSandbox : routes.putSchoolSandbox, {
        params: { id: school.id },
        body: { sandbox },
      }),
    onSuccess: () => {
      if (via === 'super') success('School mode updated successfully');
    },
    onError: (error) => {
      if (via === 'super') failure(error, 'Failed to update school mode');
      else console.error('Sandbox toggle failed:', error);
    },
    onSettled: refresh,
  });
};

/** A district's Live/Sandbox switch (super admin). */
export const useDistrictSandbox = () => {
  const refresh = useRefreshSchools();
  return useMutation({
    mutationFn: ({ district, sandbox }: { district: District | DistrictWithSchools; sandbox: boolean }) =>
      api(routes.putDistrictSandbox, { params: { id: district.id }, body: { sandbox } }),
    onSuccess: () => success('District mode updated successfully'),
    onError: (error) => failure(error, 'Failed to update district mode'),
    onSettled: refresh,
  });
};

/** Add Staff: a staff user of one of the district's schools; the answer carries the one-time sign-in. */
export const useCreateStaff = (districtId: number) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: StaffInput) => api(routes.createStaff, { params: { id: districtId }, body }),
    onSettled: () => client.invalidateQueries({ queryKey: districtQueries.users(districtId).queryKey }),
  });
};

/** Deactivate or Reactivate a staff user (a deactivated user is signed out everywhere). */
export const useSetUserActive = (districtId: number) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, active }: { id: number; active: boolean }) =>
      api(routes.setUserActive, { params: { id }, body: { active } }),
    onSuccess: (user) =>
      notifications.show({
        color: 'green.9',
        title: user.active ? 'Staff reactivated' : 'Staff deactivated',
        message: user.active ? `${user.name} can sign in again` : `${user.name} was signed out`,
      }),
    onError: (error) => failure(error, 'Failed to update the staff member'),
    onSettled: () => client.invalidateQueries({ queryKey: districtQueries.users(districtId).queryKey }),
  });
};

/** A school's or district's mode was switched elsewhere: the admin screens read the districts again. */
export const useDistrictsFollowMode = () => {
  const client = useQueryClient();
  useLiveEvent('SCHOOL_MODE_CHANGED', () => {
    void client.invalidateQueries({ queryKey: districtQueries.all });
  });
};
