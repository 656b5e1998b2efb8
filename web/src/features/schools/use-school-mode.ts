import { useQueryClient } from '@tanstack/react-query';
import { districtQueries } from '../districts/districts.queries';
import { useLiveEvent } from '../live/live';
import { rosterQueries } from '../rosters/rosters.queries';
import { schoolQueries } from './schools.queries';

/**
 * A school's sandbox mode (or its district's) was switched: read the school
 * again (the header's SANDBOX badge), the school admin's summary (its
 * `readOnly`, the Read-Only banner and the disabled controls) and the
 * districts (the admin screens' badges and switches), without a reload.
 */
export const useSchoolModeFollows = () => {
  const client = useQueryClient();
  useLiveEvent('SCHOOL_MODE_CHANGED', () => {
    void client.invalidateQueries({ queryKey: schoolQueries.all });
    void client.invalidateQueries({ queryKey: [...rosterQueries.all, 'summary'] });
    void client.invalidateQueries({ queryKey: districtQueries.all });
  });
};
