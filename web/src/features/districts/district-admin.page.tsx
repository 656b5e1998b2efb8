import {
  DEFAULT_TIME_ZONE,
  type District,
  districtEditSchema,
  districtReportCsvRows,
  districtReportFilename,
  type OneTimeCredentials,
  plural,
  type School,
  type User,
} from '@curbside/domain';
import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Container,
  Group,
  Loader,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useFieldErrors } from '../../lib/field-errors';
import { errorMessage } from '../../lib/http';
import { DANGER_TEXT, MUTED_TEXT } from '../../lib/theme';
import { useMe } from '../auth/auth.queries';
import { useDataExport } from '../exports/data-export';
import { DistrictDismissals } from '../reports/district-dismissals';
import { CredentialsDialog } from '../rosters/credentials-dialog';
import { toCsvText } from '../rosters/csv-lazy';
import { downloadText } from '../rosters/download';
import { StatCard } from '../school-admin/stat-cards';
import { CreateSchoolDialog, StaffDialog } from './admin-dialogs';
import { ActiveBadge, createdOn, EmptyState } from './badges';
import { useConfirmMode } from './confirm-mode';
import {
  districtQueries,
  fetchDistrictReport,
  useDistrictsFollowMode,
  useSchoolSandbox,
  useSetUserActive,
  useUpdateDistrict,
} from './districts.queries';

/** Roles a district admin manages (school_admin and below); others are listed without actions. */
const MANAGED: ReadonlySet<User['role']> = new Set([
  'front_queue_wrangler',
  'back_queue_wrangler',
  'teacher',
  'school_admin',
]);

/** Three stat cards share a phone's row. */
const CARD_PADDING = { base: 'sm', sm: 'lg' } as const;

/** "front_queue_wrangler" → "front queue wrangler" (specification §2). */
const roleText = (role: string) => role.replace(/_/g, ' ');

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

function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text c={MUTED_TEXT}>{label}</Text>
      <Text fw={700} ta="right">
        {children}
      </Text>
    </Group>
  );
}

/** One school: its badges and details, the sandbox switch and Manage. */
function SchoolCard({ school }: { school: School }) {
  const toggle = useSchoolSandbox('district');
  const confirm = useConfirmMode();
  const switching = toggle.isPending;
  const titleId = `school-${school.id}`;
  return (
    <Card component="article" aria-labelledby={titleId} withBorder p="md">
      <Stack gap="sm" h="100%" justify="space-between">
        <Stack gap="xs">
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
            <Title order={3} id={titleId} style={{ overflowWrap: 'anywhere' }}>
              {school.name}
            </Title>
            <ActiveBadge active={school.active} />
          </Group>
          <Line label="School ID">{school.id}</Line>
          <Line label="Created">{createdOn(school.createdAt)}</Line>
          <Line label="Sandbox">
            <Badge color={school.sandbox ? 'orange.8' : 'gray.7'} variant="filled" size="lg">
              {school.sandbox ? 'Enabled' : 'Disabled'}
            </Badge>
          </Line>
        </Stack>
        <Group grow gap="xs">
          <Button
            variant="default"
            loading={switching}
            aria-label={`${school.sandbox ? 'Disable' : 'Enable'} sandbox for ${school.name}`}
            onClick={() =>
              confirm.ask({
                name: school.name,
                district: false,
                sandbox: !school.sandbox,
                apply: () => toggle.mutate({ school, sandbox: !school.sandbox }),
              })
            }
          >
            {school.sandbox ? 'Disable' : 'Enable'}
          </Button>
          <Button
            component={Link}
            to={`/school-admin?schoolId=${school.id}`}
            aria-label={`Manage ${school.name}`}
          >
            Manage
          </Button>
        </Group>
        {confirm.modal}
      </Stack>
    </Card>
  );
}

function SchoolsTab({ district, schools }: { district: District; schools: readonly School[] }) {
  const [adding, setAdding] = useState(false);
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>Schools</Title>
        <Button onClick={() => setAdding(true)}>Add School</Button>
      </Group>
      {schools.length === 0 ? (
        <EmptyState title="No Schools Found" hint="Add the district's first school to get started." />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {schools.map((school) => (
            <SchoolCard key={school.id} school={school} />
          ))}
        </SimpleGrid>
      )}
      {adding && (
        <CreateSchoolDialog
          districts={[district]}
          districtId={district.id}
          onClose={() => setAdding(false)}
        />
      )}
    </Stack>
  );
}

/** One staff member: name, contact, role, school, status and Deactivate or Reactivate. */
function StaffCard({
  person,
  schoolName,
  canChange,
  districtId,
}: {
  person: User;
  schoolName: string | null;
  canChange: boolean;
  districtId: number;
}) {
  const setActive = useSetUserActive(districtId);
  const titleId = `staff-${person.id}`;
  return (
    <Card component="article" aria-labelledby={titleId} withBorder p="md">
      <Stack gap={6}>
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Title order={3} fz="lg" id={titleId} style={{ overflowWrap: 'anywhere' }}>
            {person.name}
          </Title>
          <ActiveBadge active={person.active} />
        </Group>
        <Text style={{ overflowWrap: 'anywhere' }}>{person.email ?? 'No email'}</Text>
        <Text ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {person.username}
        </Text>
        <Text fw={700}>{roleText(person.role)}</Text>
        {schoolName && <Text c={MUTED_TEXT}>{schoolName}</Text>}
        {canChange && (
          <Button
            mt="xs"
            variant="default"
            c={person.active ? DANGER_TEXT : undefined}
            loading={setActive.isPending}
            aria-label={`${person.active ? 'Deactivate' : 'Reactivate'} ${person.name}`}
            onClick={() => setActive.mutate({ id: person.id, active: !person.active })}
          >
            {person.active ? 'Deactivate' : 'Reactivate'}
          </Button>
        )}
      </Stack>
    </Card>
  );
}

function StaffTab({
  me,
  districtId,
  schools,
  staff,
}: {
  me: User;
  districtId: number;
  schools: readonly School[];
  staff: readonly User[];
}) {
  const [adding, setAdding] = useState(false);
  const [shown, setShown] = useState<{ who: string; credentials: OneTimeCredentials } | null>(null);
  const schoolNames = new Map(schools.map((school) => [school.id, school.name]));
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>Staff</Title>
        <Button onClick={() => setAdding(true)} disabled={schools.length === 0}>
          Add Staff
        </Button>
      </Group>
      {staff.length === 0 ? (
        <EmptyState title="No Staff Found" hint="Add staff to the district's schools with Add Staff." />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {staff.map((person) => (
            <StaffCard
              key={person.id}
              person={person}
              schoolName={person.schoolId === null ? null : (schoolNames.get(person.schoolId) ?? null)}
              canChange={person.id !== me.id && MANAGED.has(person.role)}
              districtId={districtId}
            />
          ))}
        </SimpleGrid>
      )}
      {adding && (
        <StaffDialog
          districtId={districtId}
          schools={schools}
          onClose={() => setAdding(false)}
          onCredentials={(who, credentials) => setShown({ who, credentials })}
        />
      )}
      <CredentialsDialog
        who={shown?.who ?? ''}
        credentials={shown?.credentials ?? null}
        onClose={() => setShown(null)}
        note="They set their own password when they first sign in."
      />
    </Stack>
  );
}

/**
 * Edit District (issue 50, item 13): the district's name and the time zone
 * its new schools take (each school keeps and sets its own in School Settings).
 */
function EditDistrictDialog({ district, onClose }: { district: District; onClose: () => void }) {
  const update = useUpdateDistrict(district.id);
  const [name, setName] = useState(district.name);
  const [timeZone, setTimeZone] = useState(district.timeZone ?? DEFAULT_TIME_ZONE);
  const { errors, show, showServerError } = useFieldErrors();
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = districtEditSchema.safeParse({ name, timeZone });
    if (!parsed.success) {
      show(parsed.error.issues);
      return;
    }
    update.mutate(parsed.data, { onSuccess: onClose, onError: showServerError });
  };
  return (
    <Modal opened onClose={onClose} title="Edit District" centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="District name"
            required
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={errors.name}
            data-autofocus
          />
          <Select
            label="Time zone for new schools"
            description="A new school of the district starts with it; each school sets its own in School Settings."
            searchable
            allowDeselect={false}
            data={zones.includes(timeZone) ? zones : [timeZone, ...zones]}
            value={timeZone}
            onChange={(value) => value && setTimeZone(value)}
            error={errors.timeZone}
            nothingFoundMessage="No such time zone"
            comboboxProps={{ withinPortal: false }}
          />
          {update.isError && (
            <Alert color="red" role="alert">
              {errorMessage(update.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function SettingsTab({ district, schools }: { district: District; schools: School[] }) {
  const [generating, setGenerating] = useState(false);
  const [editing, setEditing] = useState(false);
  const exporting = useDataExport();
  const generate = async () => {
    setGenerating(true);
    try {
      const rows = await fetchDistrictReport(district.id);
      // Each school's start in its own zone (issue 51); the file is named after the district's day.
      const timeZone = district.timeZone ?? DEFAULT_TIME_ZONE;
      downloadText(
        districtReportFilename(district.name, new Date(), timeZone),
        await toCsvText(districtReportCsvRows(rows, timeZone)),
      );
    } catch (error) {
      notifications.show({ color: 'red', title: 'Error', message: errorMessage(error) });
    } finally {
      setGenerating(false);
    }
  };
  return (
    <Card withBorder p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="sm" maw={560}>
        <Title order={2}>District Settings</Title>
        <Line label="District name">{district.name}</Line>
        <Line label="Status">{district.active ? 'Active' : 'Inactive'}</Line>
        <Line label="Created">{createdOn(district.createdAt)}</Line>
        <Line label="Time zone for new schools">{district.timeZone ?? DEFAULT_TIME_ZONE}</Line>
        <Group gap="sm" mt="sm">
          <Button variant="default" onClick={() => setEditing(true)}>
            Edit District
          </Button>
          <Button loading={generating} onClick={() => void generate()}>
            Generate Report
          </Button>
          <Button
            variant="light"
            disabled={schools.length === 0}
            loading={exporting.running !== null}
            onClick={() => void exporting.run(district.name, schools)}
          >
            Export Data
          </Button>
        </Group>
        {exporting.running && (
          <Text role="status">
            Exporting school {Math.min(exporting.running.done + 1, exporting.running.of)} of{' '}
            {exporting.running.of}…
          </Text>
        )}
        <Text c={MUTED_TEXT} fz="sm">
          The report lists each school with its last session's vehicles and average wait (CSV). Export Data
          downloads a zip with a folder per school: its rosters (students with their way home, classrooms,
          teachers, parents, vehicles, programs) and the last year's dismissals, as CSV files.
        </Text>
        <Line label="Clever">{district.cleverId ? 'Connected' : 'Not connected'}</Line>
        <Group>
          <Button component={Link} to="/clever-integration" variant="light">
            Student Information Import
          </Button>
        </Group>
      </Stack>
      {editing && <EditDistrictDialog district={district} onClose={() => setEditing(false)} />}
    </Card>
  );
}

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
