import { dateIn, TIME_ZONE_BEFORE_SETTING } from '@curbside/domain';
import { useQuery } from '@tanstack/react-query';
import { parentQueries } from './parent.queries';

/**
 * A child's "today": the date in their school's time zone (issue 51). The dashboard's ways home
 * name it for each school (`today`, the server's date in the school's zone, the one the change
 * form offers its days from): taken from there when they are read (issue 57, h57d: a phone made
 * its first `Intl.DateTimeFormat` for a time zone here, 0.1 s at 4× CPU in the trusted adults'
 * first render, after the dashboard's paint). Otherwise the date in the zone of the child's school
 * from the parent's list of children, or the product's zone before schools had one while that
 * list loads.
 */
export const useSchoolDay = (studentId: number): string => {
  const children = useQuery(parentQueries.students());
  const ways = useQuery(parentQueries.waysHome());
  const link = ways.data?.children.find((child) => child.studentId === studentId);
  const today = ways.data?.schools.find((school) => school.schoolId === link?.schoolId)?.today;
  if (today) return today;
  const timeZone =
    children.data?.find((child) => child.id === studentId)?.timeZone ?? TIME_ZONE_BEFORE_SETTING;
  return dateIn(timeZone);
};
