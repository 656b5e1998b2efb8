import {
  csvTemplate,
  type ImportKind,
  type OneTimeCredentials,
  type ParentRow,
  type RosterCounts,
  type StudentRow,
  type TeacherRow,
  type VehicleRow,
  vehicleLabel,
  weeklyPlanText,
} from '@curbside/domain';
import { Anchor, Badge, Button, Card, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { InviteFamiliesDialog } from '../parent-invites/invite-families-dialog';
import { StudentInvitesDialog } from '../parent-invites/student-invites-dialog';
import { StudentPickupsDialog } from '../reports/student-pickups-dialog';
import { ProgramsDialog } from '../ways-home/programs-dialog';
import { waysHomeQueries } from '../ways-home/ways-home.queries';
import { WeekEditor } from '../ways-home/week-editor';
import { ClassroomsDialog } from './classrooms-dialog';
import { CredentialsDialog } from './credentials-dialog';
import { downloadText } from './download';
import { ImportDialog } from './import-dialog';
import { ParentForm } from './parent-form';
import { RosterList } from './roster-list';
import { rosterQueries, type SchoolScope, useDeactivate } from './rosters.queries';
import { StudentForm } from './student-form';
import { TeacherForm } from './teacher-form';
import { VehicleForm } from './vehicle-form';

/** What the signed-in user may do with the rosters (the matrix, and read-only for sandboxed schools). */
export interface RosterPermissions {
  canCreate: boolean;
  canUpdate: boolean;
  canDelete: boolean;
  canImport: boolean;
}

/**
 * Who may invite the families (issue 29): a staff member of this very school
 * (invites are made in one's own school); `readOnly` for a sandboxed school.
 */
export interface InviteAccess {
  userId: number;
  schoolName: string;
  readOnly: boolean;
}

const EMPTY: Readonly<Record<ImportKind, string>> = {
  students: 'No students found. Download the template to get started with importing students.',
  teachers: 'No teachers found. Download the template to get started with importing teachers.',
  parents: 'No parents found. Download the template to get started with importing parents.',
  vehicles: 'No vehicles found. Download the template to get started with importing vehicles.',
};

const TABS: ReadonlyArray<{ kind: ImportKind; label: string }> = [
  { kind: 'students', label: 'Students' },
  { kind: 'teachers', label: 'Teachers' },
  { kind: 'parents', label: 'Parents' },
  { kind: 'vehicles', label: 'Vehicles' },
];

const names = (list: ReadonlyArray<{ firstName: string; lastName: string }>) =>
  list.length === 0 ? '—' : list.map((s) => `${s.firstName} ${s.lastName}`).join(', ');

/**
 * School Management: Students, Teachers, Parents and Vehicles, each with its
 * count, Download Template, Import and Add, and its searchable, paged list.
 */
export function RosterPanel({
  schoolId,
  counts,
  permissions,
  invites,
}: {
  schoolId: SchoolScope;
  counts: RosterCounts | undefined;
  permissions: RosterPermissions;
  /** Present when the user may invite this school's families. */
  invites?: InviteAccess;
}) {
  const [tab, setTab] = useState<ImportKind>('students');
  const [importing, setImporting] = useState<ImportKind | null>(null);
  const [editing, setEditing] = useState<{ kind: ImportKind; row: unknown } | null>(null);
  const [classrooms, setClassrooms] = useState(false);
  const [history, setHistory] = useState<StudentRow | null>(null);
  // Ways home (issue 51): the students' weekly plan column, its editor, the school's programs.
  const [wayOf, setWayOf] = useState<StudentRow | null>(null);
  const [programs, setPrograms] = useState(false);
  const wayOptions = useQuery(waysHomeQueries.options(schoolId)).data ?? { buses: [], programs: [] };
  const [inviting, setInviting] = useState(false);
  const inviteRooms = useQuery({ ...rosterQueries.classrooms(undefined), enabled: inviting });
  const [invitesOf, setInvitesOf] = useState<StudentRow | null>(null);
  const [credentials, setCredentials] = useState<{ who: string; credentials: OneTimeCredentials } | null>(
    null,
  );
  const deactivate = useDeactivate(schoolId);
  const { canCreate, canUpdate, canDelete, canImport } = permissions;

  const toolbar = (kind: ImportKind, noun: string) => (
    <>
      {kind === 'teachers' && (
        <Button variant="default" onClick={() => setClassrooms(true)}>
          Classrooms
        </Button>
      )}
      {kind === 'students' && (
        <Button variant="default" onClick={() => setPrograms(true)}>
          Programs
        </Button>
      )}
      {invites && (kind === 'students' || kind === 'parents') && (
        <Button variant="light" onClick={() => setInviting(true)}>
          Invite Families
        </Button>
      )}
      <Button variant="default" onClick={() => downloadText(`${kind}-template.csv`, csvTemplate(kind))}>
        Download Template
      </Button>
      <Button variant="light" disabled={!canImport} onClick={() => setImporting(kind)}>
        Import
      </Button>
      <Button disabled={!canCreate} onClick={() => setEditing({ kind, row: null })}>
        Add {noun}
      </Button>
    </>
  );
  const onCredentials = (who: string, made: OneTimeCredentials) => setCredentials({ who, credentials: made });
  const common = { schoolId, canUpdate, canDelete };

  return (
    <Card component="section" aria-labelledby="school-management" p={{ base: 'sm', sm: 'lg' }}>
      <Stack gap="md">
        <Title order={2} id="school-management">
          School Management
        </Title>
        <Tabs value={tab} onChange={(value) => value && setTab(value as ImportKind)} keepMounted={false}>
          <Tabs.List>
            {TABS.map(({ kind, label }) => (
              <Tabs.Tab
                key={kind}
                value={kind}
                rightSection={
                  <Badge variant="light" size="md" aria-label={`${counts?.[kind] ?? 0} ${kind}`}>
                    {counts?.[kind] ?? '…'}
                  </Badge>
                }
              >
                <Text fw={600}>{label}</Text>
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value="students" pt="md">
            <RosterList
              {...common}
              noun="students"
              query={rosterQueries.students}
              emptyText={EMPTY.students}
              labelOf={(s) => `${s.firstName} ${s.lastName}`}
              columns={[
                { header: 'Name', cell: (s) => `${s.firstName} ${s.lastName}` },
                { header: 'Grade', cell: (s) => s.grade },
                { header: 'Classroom', cell: (s) => s.classroom?.name ?? '—' },
                {
                  header: 'Picked up by',
                  cell: (s) =>
                    s.vehicles
                      .map((v) => `${v.type === 'bus' ? 'Bus' : 'Car'} ${vehicleLabel(v.type, v.number)}`)
                      .join(', ') || '—',
                },
                {
                  header: 'Way home',
                  // The week in a line; a tap opens its editor (issue 51).
                  cell: (s) => (
                    <Anchor
                      component="button"
                      type="button"
                      onClick={() => setWayOf(s)}
                      aria-label={`Way home of ${s.firstName} ${s.lastName}: ${weeklyPlanText(s.dismissalPlan, wayOptions)}`}
                      ta="left"
                      fz="inherit"
                    >
                      {weeklyPlanText(s.dismissalPlan, wayOptions)}
                    </Anchor>
                  ),
                },
                { header: 'Parent', cell: (s) => s.parentName ?? '—' },
              ]}
              onEdit={(row) => setEditing({ kind: 'students', row })}
              onDeactivate={(s) =>
                deactivate.mutate({ kind: 'students', id: s.id, label: `${s.firstName} ${s.lastName}` })
              }
              // A student's pickups are read in the staff member's own school.
              rowAction={
                schoolId === undefined
                  ? (s) => (
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => setHistory(s)}
                          aria-label={`Pickups of ${s.firstName} ${s.lastName}`}
                        >
                          Pickups
                        </Button>
                        {invites && (
                          <Button
                            size="xs"
                            variant="default"
                            onClick={() => setInvitesOf(s)}
                            aria-label={`Invites of ${s.firstName} ${s.lastName}`}
                          >
                            Invites
                          </Button>
                        )}
                      </Group>
                    )
                  : undefined
              }
              toolbar={toolbar('students', 'Student')}
            />
          </Tabs.Panel>
          <Tabs.Panel value="teachers" pt="md">
            <RosterList
              {...common}
              noun="teachers"
              query={rosterQueries.teachers}
              emptyText={EMPTY.teachers}
              labelOf={(t) => t.name}
              columns={[
                { header: 'Name', cell: (t) => t.name },
                { header: 'Username', cell: (t) => t.username },
                { header: 'Email', cell: (t) => t.email ?? '—' },
                { header: 'Phone', cell: (t) => t.phone ?? '—' },
                { header: 'Classrooms', cell: (t) => t.classrooms.map((c) => c.name).join(', ') || '—' },
              ]}
              onEdit={(row) => setEditing({ kind: 'teachers', row })}
              onDeactivate={(t) => deactivate.mutate({ kind: 'teachers', id: t.id, label: t.name })}
              toolbar={toolbar('teachers', 'Teacher')}
            />
          </Tabs.Panel>
          <Tabs.Panel value="parents" pt="md">
            <RosterList
              {...common}
              noun="parents"
              query={rosterQueries.parents}
              emptyText={EMPTY.parents}
              labelOf={(p) => p.name}
              columns={[
                { header: 'Name', cell: (p) => p.name },
                { header: 'Email', cell: (p) => p.email ?? '—' },
                { header: 'Phone', cell: (p) => p.phone ?? '—' },
                { header: 'Children', cell: (p) => names(p.students) },
                {
                  header: 'Sign-in',
                  cell: (p) =>
                    p.canSignIn ? (
                      p.username
                    ) : (
                      // Never cut to "N…" beside a long email at tablet width.
                      <Badge variant="light" color="gray" miw="max-content">
                        Not yet
                      </Badge>
                    ),
                },
              ]}
              onEdit={(row) => setEditing({ kind: 'parents', row })}
              onDeactivate={(p) => deactivate.mutate({ kind: 'parents', id: p.id, label: p.name })}
              toolbar={toolbar('parents', 'Parent')}
            />
          </Tabs.Panel>
          <Tabs.Panel value="vehicles" pt="md">
            <RosterList
              {...common}
              noun="vehicles"
              query={rosterQueries.vehicles}
              emptyText={EMPTY.vehicles}
              labelOf={(v) => `${v.type === 'bus' ? 'Bus' : 'Car'} ${vehicleLabel(v.type, v.number)}`}
              columns={[
                { header: 'Number', cell: (v) => vehicleLabel(v.type, v.number) },
                { header: 'Type', cell: (v) => (v.type === 'bus' ? 'Bus' : 'Car') },
                {
                  header: 'Vehicle',
                  cell: (v) => [v.color, v.make, v.model].filter(Boolean).join(' ') || '—',
                },
                { header: 'Family/Route', cell: (v) => v.parentName ?? '—' },
                { header: 'Students', cell: (v) => names(v.students) },
              ]}
              onEdit={(row) => setEditing({ kind: 'vehicles', row })}
              onDeactivate={(v) =>
                deactivate.mutate({
                  kind: 'vehicles',
                  id: v.id,
                  label: `${v.type === 'bus' ? 'Bus' : 'Car'} ${vehicleLabel(v.type, v.number)}`,
                })
              }
              toolbar={toolbar('vehicles', 'Vehicle')}
            />
          </Tabs.Panel>
        </Tabs>
      </Stack>
      {importing && (
        <ImportDialog kind={importing} schoolId={schoolId} opened onClose={() => setImporting(null)} />
      )}
      {history && <StudentPickupsDialog student={history} onClose={() => setHistory(null)} />}
      {wayOf && (
        <WeekEditor schoolId={schoolId} student={wayOf} canSave={canCreate} onClose={() => setWayOf(null)} />
      )}
      <ProgramsDialog
        schoolId={schoolId}
        opened={programs}
        canChange={canCreate}
        onClose={() => setPrograms(false)}
      />
      {invites && (
        <InviteFamiliesDialog
          opened={inviting}
          onClose={() => setInviting(false)}
          schoolName={invites.schoolName}
          userId={invites.userId}
          readOnly={invites.readOnly}
          rooms={inviteRooms}
        />
      )}
      {invites && invitesOf && (
        <StudentInvitesDialog
          student={invitesOf}
          schoolName={invites.schoolName}
          userId={invites.userId}
          canUpdate={!invites.readOnly}
          onClose={() => setInvitesOf(null)}
        />
      )}
      {editing?.kind === 'students' && (
        <StudentForm
          schoolId={schoolId}
          student={editing.row as StudentRow | null}
          onClose={() => setEditing(null)}
        />
      )}
      {editing?.kind === 'teachers' && (
        <TeacherForm
          schoolId={schoolId}
          teacher={editing.row as TeacherRow | null}
          canResetPassword={canCreate}
          onClose={() => setEditing(null)}
          onCredentials={onCredentials}
        />
      )}
      {editing?.kind === 'parents' && (
        <ParentForm
          schoolId={schoolId}
          parent={editing.row as ParentRow | null}
          canResetPassword={canCreate}
          onClose={() => setEditing(null)}
          onCredentials={onCredentials}
        />
      )}
      {editing?.kind === 'vehicles' && (
        <VehicleForm
          schoolId={schoolId}
          vehicle={editing.row as VehicleRow | null}
          onClose={() => setEditing(null)}
        />
      )}
      <ClassroomsDialog
        schoolId={schoolId}
        opened={classrooms}
        onClose={() => setClassrooms(false)}
        canCreate={canCreate}
        canUpdate={canUpdate}
        canDelete={canDelete}
      />
      <CredentialsDialog
        who={credentials?.who ?? ''}
        credentials={credentials?.credentials ?? null}
        onClose={() => setCredentials(null)}
      />
    </Card>
  );
}
