import {
  type ImportJob,
  isStalledImport,
  SIS_RECORD_KINDS,
  type SisRecordKind,
  stalledMinutes,
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
  Progress,
  Radio,
  ScrollArea,
  Stack,
  Stepper,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../lib/http';
import { useMe } from '../auth/auth.queries';
import { MUTED_TEXT } from '../queue/colors';
import { IMPORTED, sisQueries, useRefreshAfterImport, useResumeImport, useStartImport } from './sis.queries';

/**
 * The student-information import page (specification §2): three steps —
 * select the Clever district, select a school, preview its students (the
 * first 10 and the total) and import them. Each import is a job: the page
 * follows it (its id in the address, so a reload keeps following) with a
 * progress bar and, when it is done, what it created, updated and deactivated.
 */
export function CleverIntegrationPage() {
  const { user } = useMe();
  const [params, setParams] = useSearchParams();
  const jobId = params.get('job');
  const [step, setStep] = useState(0);
  const [districtId, setDistrictId] = useState<string | null>(null);
  const [schoolId, setSchoolId] = useState<string | null>(null);
  const [localDistrict, setLocalDistrict] = useState(String(user?.districtId ?? ''));
  const [localSchool, setLocalSchool] = useState('');
  const [createClassrooms, setCreateClassrooms] = useState(true);
  const phone = useMediaQuery('(max-width: 36em)') ?? false;

  const follow = (job: ImportJob) => {
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set('job', job.id);
      return next;
    });
    if (job.kind === 'school' && job.schoolId) setLocalSchool(String(job.schoolId));
  };
  const start = useStartImport(follow);
  // The school a school import made is the natural target of its students.
  const followed = useQuery({ ...sisQueries.job(jobId ?? ''), enabled: jobId !== null });
  // Once per job, so that the field can still be emptied or changed: the school a school
  // import made, or (after a reload) the one a student import went into when the field is empty.
  const prefilled = useRef<string | null>(null);
  useEffect(() => {
    const job = followed.data;
    if (!job?.schoolId || prefilled.current === job.id) return;
    if (job.kind !== 'school' && job.kind !== 'students') return;
    prefilled.current = job.id;
    const id = String(job.schoolId);
    setLocalSchool((current) => (job.kind === 'school' || current === '' ? id : current));
  }, [followed.data]);

  return (
    <Container size="lg" py="xl" px={{ base: 'xs', sm: 'md' }}>
      <Stack gap="lg">
        <div>
          <Title order={1}>Student Information Import</Title>
          <Text c={MUTED_TEXT}>Import districts, schools and students from Clever.</Text>
        </div>
        {jobId ? <JobPanel id={jobId} /> : null}
        <Card p={{ base: 'md', sm: 'xl' }}>
          <Stepper
            orientation={phone ? 'vertical' : 'horizontal'}
            active={step}
            onStepClick={setStep}
            size="sm"
            allowNextStepsSelect={false}
            styles={{ stepDescription: { color: 'var(--mantine-color-dimmed)' } }}
          >
            <Stepper.Step label="Select District" description="A Clever district">
              <DistrictStep
                selected={districtId}
                onSelect={(id) => {
                  setDistrictId(id);
                  setSchoolId(null);
                }}
                importing={start.isPending}
                onImport={() =>
                  districtId && start.mutate({ step: 'district', cleverDistrictId: districtId })
                }
                onNext={() => setStep(1)}
              />
            </Stepper.Step>
            <Stepper.Step label="Select School" description="One of its schools">
              {districtId ? (
                <SchoolStep
                  districtId={districtId}
                  selected={schoolId}
                  onSelect={setSchoolId}
                  localDistrict={localDistrict}
                  onLocalDistrict={setLocalDistrict}
                  importing={start.isPending}
                  onImport={() =>
                    schoolId &&
                    start.mutate({
                      step: 'school',
                      cleverSchoolId: schoolId,
                      // Specification §5: 1 when the field cannot be read as a number.
                      localDistrictId: Number.parseInt(localDistrict, 10) || 1,
                    })
                  }
                  onBack={() => setStep(0)}
                  onNext={() => setStep(2)}
                />
              ) : null}
            </Stepper.Step>
            <Stepper.Step label="Preview and Import" description="The school’s students">
              {schoolId ? (
                <StudentsStep
                  schoolId={schoolId}
                  localSchool={localSchool}
                  onLocalSchool={setLocalSchool}
                  createClassrooms={createClassrooms}
                  onCreateClassrooms={setCreateClassrooms}
                  importing={start.isPending}
                  onImport={() =>
                    start.mutate({
                      step: 'students',
                      cleverSchoolId: schoolId,
                      localSchoolId: Number.parseInt(localSchool, 10),
                      createMissingClassrooms: createClassrooms,
                    })
                  }
                  onBack={() => setStep(1)}
                />
              ) : null}
            </Stepper.Step>
          </Stepper>
        </Card>
      </Stack>
    </Container>
  );
}

function Loading({ label }: { label: string }) {
  return (
    <Center py="lg">
      <Loader aria-label={label} />
    </Center>
  );
}

/** Errors already toasted: going back to a step does not toast its failed read again. */
const toasted = new WeakSet<object>();

/**
 * A read that failed: its toast once (specification §8, the title with the
 * server's message), and on the page until it works, with Try again.
 */
function QueryError({ title, error, onRetry }: { title: string; error: unknown; onRetry: () => void }) {
  useEffect(() => {
    if (typeof error === 'object' && error !== null) {
      if (toasted.has(error)) return;
      toasted.add(error);
    }
    notifications.show({ color: 'red', title, message: errorMessage(error) });
  }, [title, error]);
  return (
    <Alert color="red" title={title} role="alert">
      <Stack gap="sm" align="flex-start">
        <Text>{errorMessage(error)}</Text>
        <Button variant="default" onClick={onRetry}>
          Try again
        </Button>
      </Stack>
    </Alert>
  );
}

/** A read without its data yet: loading while it runs, its error (with Try again) when it failed. */
function ReadState(props: { query: UseQueryResult<unknown>; loading: string; failed: string }) {
  const { query } = props;
  if (query.isPending) return <Loading label={props.loading} />;
  if (query.isError)
    return <QueryError title={props.failed} error={query.error} onRetry={() => void query.refetch()} />;
  return null;
}

/** One Clever record to pick, by name, with what tells it apart. */
function Choices(props: {
  label: string;
  selected: string | null;
  onSelect: (id: string) => void;
  options: Array<{ id: string; name: string; detail: string }>;
}) {
  return (
    <Radio.Group
      label={props.label}
      value={props.selected}
      onChange={props.onSelect}
      styles={{ label: { fontWeight: 700 } }}
    >
      <Stack gap="sm" mt="xs">
        {props.options.map((option) => (
          <Radio key={option.id} value={option.id} label={option.name} description={option.detail} />
        ))}
      </Stack>
    </Radio.Group>
  );
}

function DistrictStep(props: {
  selected: string | null;
  onSelect: (id: string) => void;
  importing: boolean;
  onImport: () => void;
  onNext: () => void;
}) {
  const districts = useQuery(sisQueries.districts());
  if (!districts.isSuccess)
    return <ReadState query={districts} loading="Loading districts" failed="Failed to fetch districts" />;
  if (districts.data.length === 0)
    return (
      <Text role="status" py="md">
        No district shares its data with Curbside in Clever yet.
      </Text>
    );
  return (
    <Stack gap="md" pt="md">
      <Choices
        label="Clever district"
        selected={props.selected}
        onSelect={props.onSelect}
        options={districts.data.map((district) => ({
          id: district.id,
          name: district.name,
          detail: `${district.state ? `Clever sync: ${district.state} · ` : ''}Clever id ${district.id}`,
        }))}
      />
      <Group>
        <Button variant="light" disabled={!props.selected} loading={props.importing} onClick={props.onImport}>
          Import District
        </Button>
        <Button disabled={!props.selected} onClick={props.onNext}>
          Next
        </Button>
      </Group>
    </Stack>
  );
}

function SchoolStep(props: {
  districtId: string;
  selected: string | null;
  onSelect: (id: string) => void;
  localDistrict: string;
  onLocalDistrict: (value: string) => void;
  importing: boolean;
  onImport: () => void;
  onBack: () => void;
  onNext: () => void;
}) {
  const schools = useQuery(sisQueries.schools(props.districtId));
  if (!schools.isSuccess)
    return <ReadState query={schools} loading="Loading schools" failed="Failed to fetch schools" />;
  return (
    <Stack gap="md" pt="md">
      <Choices
        label="Clever school"
        selected={props.selected}
        onSelect={props.onSelect}
        options={schools.data.map((school) => ({
          id: school.id,
          name: school.name,
          detail: `Clever id ${school.id}`,
        }))}
      />
      <TextInput
        label="Local district ID"
        description="The Curbside district the school joins"
        value={props.localDistrict}
        onChange={(event) => props.onLocalDistrict(event.currentTarget.value)}
        inputMode="numeric"
        maw={280}
      />
      <Group>
        <Button variant="default" onClick={props.onBack}>
          Back
        </Button>
        <Button
          variant="light"
          disabled={!props.selected || props.localDistrict.trim() === ''}
          loading={props.importing}
          onClick={props.onImport}
        >
          Import School
        </Button>
        <Button disabled={!props.selected} onClick={props.onNext}>
          Next
        </Button>
      </Group>
    </Stack>
  );
}

function StudentsStep(props: {
  schoolId: string;
  localSchool: string;
  onLocalSchool: (value: string) => void;
  createClassrooms: boolean;
  onCreateClassrooms: (value: boolean) => void;
  importing: boolean;
  onImport: () => void;
  onBack: () => void;
}) {
  const preview = useQuery(sisQueries.preview(props.schoolId));
  const localSchoolId = Number.parseInt(props.localSchool, 10);
  return (
    <Stack gap="md" pt="md">
      <ReadState query={preview} loading="Loading students" failed="Failed to preview students" />
      {preview.data ? (
        <>
          <Text fw={700}>
            {preview.data.totalCount.toLocaleString('en-US')}{' '}
            {preview.data.totalCount === 1 ? 'student' : 'students'} in this school; the first{' '}
            {preview.data.preview.length}:
          </Text>
          {/* Wider than a phone: the table scrolls sideways, from the keyboard too. */}
          <ScrollArea type="auto" viewportProps={{ tabIndex: 0 }}>
            <Table striped verticalSpacing="xs" aria-label="Student preview" miw={640}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>First name</Table.Th>
                  <Table.Th>Last name</Table.Th>
                  <Table.Th>Grade</Table.Th>
                  <Table.Th>Student number</Table.Th>
                  <Table.Th>Email</Table.Th>
                  <Table.Th>Clever ID</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {preview.data.preview.map((student) => (
                  <Table.Tr key={student.cleverId}>
                    <Table.Td>{student.firstName}</Table.Td>
                    <Table.Td>{student.lastName}</Table.Td>
                    <Table.Td>{student.grade}</Table.Td>
                    <Table.Td>{student.studentNumber}</Table.Td>
                    <Table.Td>{student.email ?? ''}</Table.Td>
                    <Table.Td ff="monospace" fz="sm">
                      {student.cleverId}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        </>
      ) : null}
      <TextInput
        label="Local school ID"
        description="The Curbside school the students join"
        value={props.localSchool}
        onChange={(event) => props.onLocalSchool(event.currentTarget.value)}
        inputMode="numeric"
        maw={280}
      />
      <Switch
        label="Create missing classrooms"
        description="A classroom for each Clever section the school does not have yet"
        checked={props.createClassrooms}
        onChange={(event) => props.onCreateClassrooms(event.currentTarget.checked)}
      />
      <Group>
        <Button variant="default" onClick={props.onBack}>
          Back
        </Button>
        <Button
          disabled={!Number.isInteger(localSchoolId) || localSchoolId < 1}
          loading={props.importing}
          onClick={props.onImport}
        >
          Import Students
        </Button>
      </Group>
    </Stack>
  );
}

const KIND_LABEL: Record<ImportJob['kind'], string> = {
  district: 'District import',
  school: 'School import',
  students: 'Student import',
  sync: 'Nightly sync',
};
const RECORD_LABEL: Record<SisRecordKind, string> = {
  schools: 'Schools',
  teachers: 'Teachers',
  classrooms: 'Classrooms',
  students: 'Students',
  parents: 'Parents',
};

/** The import being followed: its progress while it runs, its counts when it is done. */
function JobPanel({ id }: { id: string }) {
  const job = useQuery(sisQueries.job(id));
  const resume = useResumeImport();
  const refresh = useRefreshAfterImport();
  const refreshed = useRef<string | null>(null);
  const card = useRef<HTMLElement>(null);
  const data = job.data;
  // A new import starts below, at its button: bring its progress into view.
  const shown = job.isSuccess;
  useEffect(() => {
    if (shown && id) card.current?.scrollIntoView({ block: 'start' });
  }, [id, shown]);
  // Seen running here: its end is news ("Students Imported"); a job opened already done is not.
  const sawRunning = useRef(false);
  useEffect(() => {
    if (data?.status === 'running') sawRunning.current = true;
    if (data?.status === 'succeeded' && refreshed.current !== data.id) {
      refreshed.current = data.id;
      void refresh();
      if (sawRunning.current && data.kind !== 'sync') {
        notifications.show({ color: 'green.9', title: IMPORTED[data.kind], message: data.message });
      }
    }
  }, [data, refresh]);
  if (!job.isSuccess) return <ReadState query={job} loading="Loading the import" failed="Import not found" />;
  // Running, but its run has saved nothing for minutes: its runtime went away (the job polls, so this is re-read).
  const stalled = isStalledImport(job.data);
  const moving = job.data.status === 'running' && !stalled;
  const status = stalled
    ? 'Stalled'
    : job.data.status === 'running'
      ? 'Running'
      : job.data.status === 'succeeded'
        ? 'Finished'
        : 'Stopped';
  const color = moving ? 'blue' : job.data.status === 'succeeded' ? 'green.9' : 'red.9';
  const rows = SIS_RECORD_KINDS.filter((kind) => {
    const tally = job.data.counts[kind];
    return tally.created + tally.updated + tally.unchanged + tally.deactivated > 0;
  });
  return (
    <Card ref={card} p={{ base: 'md', sm: 'lg' }} withBorder aria-label="Import progress" component="section">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} fz="h3">
            {KIND_LABEL[job.data.kind]}
          </Title>
          <Badge color={color} variant="filled">
            {status}
          </Badge>
        </Group>
        <Progress
          value={job.data.percent}
          size="xl"
          color={color}
          striped={moving}
          animated={moving}
          aria-label="Import progress"
        />
        <Text role="status" aria-live="polite">
          {job.data.percent}% · {job.data.message}
        </Text>
        {stalled ? (
          <Text>
            No progress for {stalledMinutes(job.data)} minutes: the import stopped where it was. Resume it to
            continue from there.
          </Text>
        ) : null}
        {job.data.status === 'failed' || stalled ? (
          <Group>
            <Button color="red.9" loading={resume.isPending} onClick={() => resume.mutate(job.data.id)}>
              Resume import
            </Button>
          </Group>
        ) : null}
        {job.data.status !== 'running' && rows.length > 0 ? (
          <ScrollArea type="auto" viewportProps={{ tabIndex: 0 }}>
            <Table verticalSpacing="xs" horizontalSpacing="xs" aria-label="What the import did" miw={420}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Records</Table.Th>
                  <Table.Th ta="right">New</Table.Th>
                  <Table.Th ta="right">Updated</Table.Th>
                  <Table.Th ta="right">Unchanged</Table.Th>
                  <Table.Th ta="right">Deactivated</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((kind) => (
                  <Table.Tr key={kind}>
                    <Table.Th scope="row">{RECORD_LABEL[kind]}</Table.Th>
                    <Table.Td ta="right">{job.data.counts[kind].created.toLocaleString('en-US')}</Table.Td>
                    <Table.Td ta="right">{job.data.counts[kind].updated.toLocaleString('en-US')}</Table.Td>
                    <Table.Td ta="right">{job.data.counts[kind].unchanged.toLocaleString('en-US')}</Table.Td>
                    <Table.Td ta="right">
                      {job.data.counts[kind].deactivated.toLocaleString('en-US')}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        ) : null}
        {/* What a student import wrote, on the school admin screen; Clever has no cars. */}
        {job.data.status === 'succeeded' && job.data.kind === 'students' && job.data.schoolId ? (
          <Text fw={700}>
            Clever brings no vehicles: add the families' cars (School Rosters, Vehicles: Add or Import) before
            this school can run a car line.
          </Text>
        ) : null}
        {job.data.status === 'succeeded' && job.data.kind === 'students' && job.data.schoolId ? (
          <Group>
            <Button component={Link} to={`/school-admin?schoolId=${job.data.schoolId}`} variant="light">
              Open School Rosters
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}
