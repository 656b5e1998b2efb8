import type { InviteStatus, InviteView } from '@curbside/domain';
import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../lib/http';
import { DANGER_TEXT, MUTED_TEXT } from '../../lib/theme';
import { keepLetters, LETTERS_PATH } from './letters-handoff';
import { inviteQueries, useCreateInvites, useRevokeInvite } from './parent-invites.queries';

const STATUS: Readonly<Record<InviteStatus, { label: string; color: string }>> = {
  pending: { label: 'Pending', color: 'blue' },
  accepted: { label: 'Accepted', color: 'green' },
  expired: { label: 'Expired', color: 'gray' },
  revoked: { label: 'Revoked', color: 'red' },
};

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

/** Revoke, asked twice: a printed letter stops working at once. */
function RevokeButton({ invite, disabled }: { invite: InviteView; disabled: boolean }) {
  const [asking, setAsking] = useState(false);
  const revoke = useRevokeInvite();
  const who = invite.guardianName ?? 'this family';
  if (!asking) {
    return (
      <Button
        size="xs"
        variant="subtle"
        color="red.8"
        disabled={disabled}
        onClick={() => setAsking(true)}
        aria-label={`Revoke the invite for ${who}`}
        // As the roster's Deactivate: at least 4.5:1 on the striped rows, light or dark.
        style={disabled ? undefined : { color: DANGER_TEXT }}
      >
        Revoke
      </Button>
    );
  }
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        size="xs"
        color="red.8"
        loading={revoke.isPending}
        aria-label={`Yes, revoke the invite for ${who}`}
        onClick={() =>
          revoke.mutate(invite.id, {
            onSuccess: () =>
              notifications.show({
                color: 'green',
                title: 'Invite revoked',
                message: 'The link no longer works.',
              }),
            onError: (error) =>
              notifications.show({
                color: 'red',
                title: 'Failed to revoke invite',
                message: errorMessage(error),
              }),
            onSettled: () => setAsking(false),
          })
        }
      >
        Yes, Revoke
      </Button>
      <Button size="xs" variant="default" onClick={() => setAsking(false)}>
        Keep
      </Button>
    </Group>
  );
}

/**
 * A student's parent invites (from the roster): to whom, when made, until
 * when, and where each stands; Revoke a pending one; a new invite, printed
 * at once (its link is shown only now).
 */
export function StudentInvitesDialog({
  student,
  schoolName,
  userId,
  canUpdate,
  onClose,
}: {
  student: { id: number; firstName: string; lastName: string };
  schoolName: string;
  userId: number;
  canUpdate: boolean;
  onClose: () => void;
}) {
  const invites = useQuery(inviteQueries.ofStudent(student.id));
  const create = useCreateInvites();
  const navigate = useNavigate();
  const name = `${student.firstName} ${student.lastName}`;
  const newInvite = () =>
    create.mutate(
      { studentIds: [student.id] },
      {
        onSuccess: ({ invites: made }) => {
          keepLetters({ userId, schoolName, madeAt: new Date().toISOString(), invites: made });
          void navigate(LETTERS_PATH);
        },
        onError: (error) =>
          notifications.show({ color: 'red', title: 'Failed to make invite', message: errorMessage(error) }),
      },
    );
  const list = [...(invites.data ?? [])].reverse();
  return (
    <Modal opened onClose={onClose} title={`Invites: ${name}`} size="xl">
      <Stack gap="md">
        {invites.isPending ? (
          <Loader aria-label="Loading invites" />
        ) : invites.isError ? (
          <Alert color="red" title="Failed to load invites">
            {errorMessage(invites.error)}
          </Alert>
        ) : list.length === 0 ? (
          <Text c={MUTED_TEXT}>No invites made for {name} yet.</Text>
        ) : (
          <Table.ScrollContainer minWidth={620}>
            <Table striped aria-label={`Invites of ${name}`}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>For</Table.Th>
                  <Table.Th>Email</Table.Th>
                  <Table.Th>Made</Table.Th>
                  <Table.Th>Expires</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((invite) => (
                  <Table.Tr key={invite.id} data-invite-id={invite.id}>
                    <Table.Td>{invite.guardianName ?? 'Family'}</Table.Td>
                    <Table.Td>{invite.email ?? '—'}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{day(invite.createdAt)}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{day(invite.expiresAt)}</Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Badge variant="light" color={STATUS[invite.status].color} miw="max-content">
                          {STATUS[invite.status].label}
                        </Badge>
                        {invite.notDelivered && invite.status === 'pending' && (
                          <Badge variant="light" color="orange" miw="max-content">
                            Not delivered
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      {invite.status === 'pending' && <RevokeButton invite={invite} disabled={!canUpdate} />}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Group justify="space-between">
          <Text c={MUTED_TEXT} fz="sm">
            A lost letter: revoke its invite, then print a new one.
          </Text>
          <Group>
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button onClick={newInvite} loading={create.isPending} disabled={!canUpdate}>
              New Invite and Letter
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
