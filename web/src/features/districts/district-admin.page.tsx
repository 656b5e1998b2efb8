import { plural, type User } from '@curbside/domain';
import {
  Alert,
  Card,
  Center,
  Container,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../lib/http';
import { MUTED_TEXT } from '../../lib/theme';
import { useMe } from '../auth/auth.queries';
import { DistrictDismissals } from '../reports/district-dismissals';
import { StatCard } from '../school-admin/stat-cards';
import { ActiveBadge } from './badges';
import { SchoolsTab } from './district-schools';
import { SettingsTab } from './district-settings';
import { StaffTab } from './district-staff';
import { districtQueries, useDistrictsFollowMode } from './districts.queries';

/** Three stat cards share a phone's row. */
const CARD_PADDING = { base: 'sm', sm: 'lg' } as const;

/**
 * Which district the screen shows: a district admin's own; a super admin's
 * `?districtId=`, else the first district.
 */
const useDistrictId = (user: User | null): { id: number | null; isLoading: boolean } => {
  const [params] = useSearchParams();
  const asked = Number(params.get('districtId'));
  const picked =
    user?.role === 'super_admin' && Number.isInteger(asked) && asked > 0 ? asked : (user?.districtId ?? null);
  const list = useQuery({ ...districtQueries.list(), enabled: user !== null && picked === null });
  if (picked !== null) return { id: picked, isLoading: false };
  return { id: list.data?.[0]?.id ?? null, isLoading: list.isPending };
};

/**
 * The district admin screen (specification §2): the district, three cards,
 * and the Schools, Staff and Settings tabs. Ours also adds staff (one-time
 * password shown once), deactivates and reactivates them, and Generate
 * Report downloads a CSV.
 */
export function DistrictAdminPage() {
  useDistrictsFollowMode();
  const { user } = useMe();
  const { id, isLoading } = useDistrictId(user);
  const enabled = id !== null;
  const district = useQuery({ ...districtQueries.detail(id ?? 0), enabled });
  const schools = useQuery({ ...districtQueries.schools(id ?? 0), enabled });
  const staff = useQuery({ ...districtQueries.users(id ?? 0), enabled });
  if (!user) return null;
  if (isLoading || (enabled && (district.isPending || schools.isPending))) {
    return (
      <Center py="xl">
        <Loader size="xl" aria-label="Loading" />
      </Center>
    );
  }
  const failed = district.error ?? schools.error;
  if (!enabled || failed || !district.data) {
    return (
      <Container size="sm" py="xl">
        <Alert color="red" title="This district could not be opened" role="alert">
          {failed ? errorMessage(failed) : 'No district is linked to this account.'}
        </Alert>
      </Container>
    );
  }
  const schoolList = schools.data ?? [];
  const staffList = staff.data ?? [];
  return (
    <Container fluid px={{ base: 'xs', sm: 'md' }} py="md">
      <Stack gap="md">
        <Stack gap={0}>
          <Title order={1}>District Administration</Title>
          <Text fz="lg" c={MUTED_TEXT}>
            {district.data.name} · {plural(schoolList.length, 'school')}
          </Text>
        </Stack>
        <SimpleGrid cols={3} spacing={{ base: 'xs', sm: 'md' }}>
          <StatCard title="Total Schools" p={CARD_PADDING}>
            <Title order={3}>{schoolList.length}</Title>
          </StatCard>
          <StatCard title="Total Staff" p={CARD_PADDING}>
            <Title order={3}>{staff.isPending ? '…' : staffList.length}</Title>
          </StatCard>
          <StatCard title="District Status" p={CARD_PADDING}>
            <Group>
              <ActiveBadge active={district.data.active} />
            </Group>
          </StatCard>
        </SimpleGrid>
        <Card p={{ base: 'sm', sm: 'lg' }}>
          <Tabs defaultValue="schools" keepMounted={false}>
            <Tabs.List grow mb="md">
              <Tabs.Tab value="schools" fz="md">
                Schools
              </Tabs.Tab>
              <Tabs.Tab value="staff" fz="md">
                Staff
              </Tabs.Tab>
              <Tabs.Tab value="dismissals" fz="md">
                Dismissals
              </Tabs.Tab>
              <Tabs.Tab value="settings" fz="md">
                Settings
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="schools">
              <SchoolsTab district={district.data} schools={schoolList} />
            </Tabs.Panel>
            <Tabs.Panel value="staff">
              {staff.isError ? (
                <Alert color="red" role="alert">
                  {errorMessage(staff.error)}
                </Alert>
              ) : (
                <StaffTab me={user} districtId={district.data.id} schools={schoolList} staff={staffList} />
              )}
            </Tabs.Panel>
            <Tabs.Panel value="dismissals">
              <DistrictDismissals districtId={district.data.id} />
            </Tabs.Panel>
            <Tabs.Panel value="settings">
              <SettingsTab district={district.data} schools={schoolList} />
            </Tabs.Panel>
          </Tabs>
        </Card>
      </Stack>
    </Container>
  );
}
