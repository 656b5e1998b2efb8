import {
  type Classroom,
  type CreateInvitesInput,
  GRADES,
  type NewInviteView,
  plural,
} from '@curbside/domain';
import { Alert, Button, Group, Modal, Radio, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../lib/http';
import { MUTED_TEXT } from '../../lib/theme';
import { keepLetters, LETTERS_PATH } from './letters-handoff';
import { useCreateInvites, useEmailInvites } from './parent-invites.queries';

type Scope = 'school' | 'grade' | 'classroom';

const gradeLabel = (grade: string) =>
  /^\d+$/.test(grade) ? `Grade ${grade}` : grade === 'K' ? 'Kindergarten' : grade;

/** The selector the API takes for a choice, or null while it is incomplete. */
const selectorOf = (
  scope: Scope,
  grade: string | null,
  classroomId: string | null,
): CreateInvitesInput | null => {
  if (scope === 'school') return { allStudents: true };
  if (scope === 'grade') return grade ? { grade } : null;
  return classroomId ? { classroomId: Number(classroomId) } : null;
};

/** Invites emailed: a toast either way (the mail route answers how many were sent and skipped). */
export const useEmailInvitesAction = () => {
  const email = useEmailInvites();
  const send = (selector: CreateInvitesInput) =>
    email.mutate(selector, {
      onSuccess: ({ sent, skipped }) =>
        notifications.show({
          color: 'green',
          title: 'Invites emailed',
          message: `${plural(sent, 'email')} sent; ${plural(skipped, 'family', 'families')} without an email address skipped.`,
        }),
      onError: (error) =>
        notifications.show({ color: 'red', title: 'Failed to email invites', message: errorMessage(error) }),
    });
  return { send, pending: email.isPending };
};

/**
 * Invite Families (issue 29): one invite link per student and known guardian
 * for the whole school, a grade or a classroom; then print the letters (a QR
 * code and the link, in English and Spanish) or email the invites.
 */
export function InviteFamiliesDialog({
  opened,
  onClose,
  schoolName,
  userId,
  readOnly,
  rooms,
}: {
  opened: boolean;
  onClose: () => void;
  schoolName: string;
  userId: number;
  readOnly: boolean;
  /** The school's classrooms, as the roster reads them (read while the dialog is open). */
  rooms: { data: readonly Classroom[] | undefined; isPending: boolean };
}) {
  const [scope, setScope] = useState<Scope>('school');
  const [grade, setGrade] = useState<string | null>(null);
  const [classroomId, setClassroomId] = useState<string | null>(null);
  const [made, setMade] = useState<{ selector: CreateInvitesInput; invites: NewInviteView[] } | null>(null);
  const create = useCreateInvites();
  const email = useEmailInvitesAction();
  const navigate = useNavigate();

  const roomList = [...(rooms.data ?? [])].sort((a, b) =>
    a.name.localeCompare(b.name, undefined, { numeric: true }),
  );
  const roomGrades = new Set(roomList.map((room) => room.grade));
  // The grades the school's classrooms have (else every grade the rosters take).
  const grades = roomGrades.size > 0 ? GRADES.filter((g) => roomGrades.has(g)) : GRADES;
  const selector = selectorOf(scope, grade, classroomId);

  const close = () => {
    setMade(null);
    create.reset();
    onClose();
  };
  const submit = () => {
    if (!selector) return;
    create.mutate(selector, {
      onSuccess: ({ invites }) => setMade({ selector, invites }),
    });
  };
  const print = () => {
    if (!made) return;
    keepLetters({ userId, schoolName, madeAt: new Date().toISOString(), invites: made.invites });
    void navigate(LETTERS_PATH);
  };

  const students = made ? new Set(made.invites.map((invite) => invite.studentId)).size : 0;
  const withEmail = made ? made.invites.filter((invite) => invite.email).length : 0;

  return (
    <Modal opened={opened} onClose={close} title="Invite Families" size="lg" centered>
      {made ? (
        <Stack gap="md">
          {made.invites.length === 0 ? (
            <Alert color="blue" title="No students found">
              There are no active students in this choice, so no invites were made.
            </Alert>
          ) : (
            <Alert color="green" title={`${plural(made.invites.length, 'invite')} made`} role="status">
              <Text>
                {plural(made.invites.length, 'invite')} for {plural(students, 'student')}; {withEmail} with an
                email address. Each link works once and expires in 30 days.
              </Text>
            </Alert>
          )}
          <Text c={MUTED_TEXT}>
            Print the letters now: a link is shown only once. If a letter is lost, make a new invite from the
            student&apos;s Invites.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Done
            </Button>
            <Button
              variant="light"
              onClick={() => email.send(made.selector)}
              loading={email.pending}
              disabled={readOnly}
            >
              Email Invites
            </Button>
            <Button onClick={print} disabled={made.invites.length === 0}>
              Print Letters
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="md">
          <Text>
            Make a personal invite link for every family: print letters with a QR code (in English and
            Spanish) or email them. Each link works once and expires in 30 days.
          </Text>
          <Radio.Group label="Who to invite" value={scope} onChange={(value) => setScope(value as Scope)}>
            <Stack gap="xs" mt="xs">
              <Radio value="school" label="The whole school" />
              <Radio value="grade" label="A grade" />
              <Radio value="classroom" label="A classroom" />
            </Stack>
          </Radio.Group>
          {scope === 'grade' && (
            <Select
              label="Grade"
              placeholder="Choose a grade"
              data={grades.map((g) => ({ value: g, label: gradeLabel(g) }))}
              value={grade}
              onChange={setGrade}
              allowDeselect={false}
            />
          )}
          {scope === 'classroom' && (
            <Select
              label="Classroom"
              placeholder={rooms.isPending ? 'Loading classrooms…' : 'Choose a classroom'}
              data={roomList.map((room) => ({ value: String(room.id), label: room.name }))}
              value={classroomId}
              onChange={setClassroomId}
              searchable
              allowDeselect={false}
              nothingFoundMessage="No classroom of that name"
            />
          )}
          {create.isError && (
            <Alert color="red" title="Failed to make invites" role="alert">
              {errorMessage(create.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button onClick={submit} disabled={!selector || readOnly} loading={create.isPending}>
              Make Invites
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
