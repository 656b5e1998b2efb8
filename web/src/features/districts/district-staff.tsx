import type { OneTimeCredentials, School, User } from '@curbside/domain';
import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { DANGER_TEXT, MUTED_TEXT } from '../../lib/theme';
import { CredentialsDialog } from '../rosters/credentials-dialog';
import { StaffDialog } from './admin-dialogs';
import { ActiveBadge, EmptyState } from './badges';
import { useSetUserActive } from './districts.queries';

/** Roles a district admin manages (school_admin and below); others are listed without actions. */
const MANAGED: ReadonlySet<User['role']> = new Set([
  'front_queue_wrangler',
  'back_queue_wrangler',
  'teacher',
  'school_admin',
]);

/** "front_queue_wrangler" → "front queue wrangler" (specification §2). */
const roleText = (role: string) => role.replace(/_/g, ' ');

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

export function StaffTab({
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
