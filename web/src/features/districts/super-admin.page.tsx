import { type DistrictWithSchools, plural, type School } from '@curbside/domain';
import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Container,
  Divider,
  Group,
  Loader,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../lib/http';
import { MUTED_TEXT } from '../../lib/theme';
import { CleverAssignments } from '../sis/clever-assignments';
import { CreateDistrictDialog, CreateSchoolDialog } from './admin-dialogs';
import { createdOn, EmptyState, ModeBadge } from './badges';
import { useConfirmMode } from './confirm-mode';
import {
  districtQueries,
  useDistrictSandbox,
  useDistrictsFollowMode,
  useSchoolSandbox,
} from './districts.queries';

/** A school under its district: badges and its own Live/Sandbox switch. */
function SchoolRow({ school, district }: { school: School; district: DistrictWithSchools }) {
  const toggle = useSchoolSandbox('super');
  const confirm = useConfirmMode();
  return (
    <Group
      justify="space-between"
      gap="sm"
      py="xs"
      role="group"
      aria-label={school.name}
      wrap="wrap"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Stack gap={4} style={{ minWidth: 0, flex: '1 1 12rem' }}>
        <Text fw={700} fz="lg" style={{ overflowWrap: 'anywhere' }}>
          {school.name}
        </Text>
        <Group gap="xs">
          <ModeBadge sandbox={school.sandbox || district.sandbox} />
          {!school.active && <InactiveBadge />}
        </Group>
        <Text fz="sm" c={MUTED_TEXT}>
          School ID {school.id} · Created {createdOn(school.createdAt)}
          {district.sandbox && !school.sandbox ? ' · Sandbox through its district' : ''}
        </Text>
      </Stack>
      <Switch
        size="lg"
        label="Sandbox mode"
        aria-label={`Sandbox mode for ${school.name}`}
        checked={school.sandbox}
        disabled={toggle.isPending}
        onChange={(event) => {
          const sandbox = event.currentTarget.checked;
          confirm.ask({
            name: school.name,
            district: false,
            sandbox,
            apply: () => toggle.mutate({ school, sandbox }),
          });
        }}
      />
      {confirm.modal}
    </Group>
  );
}

function InactiveBadge() {
  return (
    <Badge color="gray.7" variant="filled" size="lg">
      Inactive
    </Badge>
  );
}

/** One district: badges, school count, created date, the Live/Sandbox switch and its schools. */
function DistrictCard({ district }: { district: DistrictWithSchools }) {
  const toggle = useDistrictSandbox();
  const confirm = useConfirmMode();
  const titleId = `district-${district.id}`;
  return (
    <Card component="article" aria-labelledby={titleId} p={{ base: 'sm', sm: 'lg' }}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
          <Stack gap={4} style={{ minWidth: 0, flex: '1 1 14rem' }}>
            <Title order={2} fz="h3" id={titleId} style={{ overflowWrap: 'anywhere' }}>
              {district.name}
            </Title>
            <Group gap="xs">
              <ModeBadge sandbox={district.sandbox} />
              {!district.active && <InactiveBadge />}
            </Group>
            <Text c={MUTED_TEXT}>
              {plural(district.schools.length, 'school')} · Created {createdOn(district.createdAt)}
            </Text>
          </Stack>
          <Switch
            size="lg"
            label="Sandbox mode"
            aria-label={`Sandbox mode for ${district.name}`}
            checked={district.sandbox}
            disabled={toggle.isPending}
            onChange={(event) => {
              const sandbox = event.currentTarget.checked;
              confirm.ask({
                name: district.name,
                district: true,
                sandbox,
                apply: () => toggle.mutate({ district, sandbox }),
              });
            }}
          />
          {confirm.modal}
        </Group>
        {district.schools.length > 0 && (
          <Stack gap={0} pl={{ base: 0, sm: 'md' }}>
            {district.schools.map((school) => (
              <SchoolRow key={school.id} school={school} district={district} />
            ))}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

/**
 * The super admin dashboard (specification §2): Create District and Create
 * School, and every district with its schools, each with its Live or Sandbox
 * badge and switch; below them, which Clever district each district imports from.
 */
export function SuperAdminPage() {
  useDistrictsFollowMode();
  const districts = useQuery(districtQueries.list());
  const [dialog, setDialog] = useState<'district' | 'school' | null>(null);
  const list = districts.data ?? [];
  return (
    <Container size="lg" px={{ base: 'xs', sm: 'md' }} py="md">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end" gap="sm">
          <Stack gap={0}>
            <Title order={1}>Super Admin Dashboard</Title>
            <Text fz="lg" c={MUTED_TEXT}>
              {districts.data ? `${plural(list.length, 'district')}` : 'Districts and schools'}
            </Text>
          </Stack>
          <Group gap="sm">
            <Button onClick={() => setDialog('district')}>Create District</Button>
            <Button variant="default" onClick={() => setDialog('school')} disabled={list.length === 0}>
              Create School
            </Button>
          </Group>
        </Group>
        <Divider />
        {districts.isPending ? (
          <Center py="xl">
            <Loader size="xl" aria-label="Loading" />
          </Center>
        ) : districts.isError ? (
          <Alert color="red" title="The districts could not be read" role="alert">
            {errorMessage(districts.error)}
          </Alert>
        ) : list.length === 0 ? (
          <Card>
            <EmptyState title="No Districts Found" hint="Create the first district to get started." />
          </Card>
        ) : (
          list.map((district) => <DistrictCard key={district.id} district={district} />)
        )}
        {districts.data && <CleverAssignments districts={list} />}
      </Stack>
      {dialog === 'district' && <CreateDistrictDialog onClose={() => setDialog(null)} />}
      {dialog === 'school' && (
        <CreateSchoolDialog districts={list} districtId={null} onClose={() => setDialog(null)} />
      )}
    </Container>
  );
}
