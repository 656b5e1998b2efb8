import { dateIn, TIME_ZONE_BEFORE_SETTING } from '@curbside/domain';
import { useQuery } from '@tanstack/react-query';
import { parentQueries } from './parent.queries';

/**
 * A child's "today": the date in their school's time zone (issue 51), from
 * the parent's list of children; the product's zone before schools had one
 * while that list loads.
 */
export const useSchoolDay = (studentId: number): string => {
  const children = useQuery(parentQueries.students());
  const timeZone =
    children.data?.find((child) => child.id === studentId)?.timeZone ?? TIME_ZONE_BEFORE_SETTING;
  return dateIn(timeZone);
};
