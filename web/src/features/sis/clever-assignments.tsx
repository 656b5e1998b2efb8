import type { DistrictWithSchools, SisDistrictAssignment } from '@curbside/domain';
import { Alert, Button, Card, Group, Loader, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../lib/http';
import { MUTED_TEXT } from '../../lib/theme';
import { sisQueries, useAssignCleverDistrict } from './sis.queries';

/** One Clever district: the district it is assigned to, or a choice of district and Assign. */
function AssignmentRow({
  clever,
  districts,
}: {
  clever: SisDistrictAssignment;
  districts: readonly DistrictWithSchools[];
}) {
  const assign = useAssignCleverDistrict();
  const free = districts.filter((district) => !district.cleverId);
  const [chosen, setChosen] = useState('');
  const assigned = districts.find((district) => district.id === clever.districtId);
  return (
    <Group
      justify="space-between"
      align="flex-end"
      gap="sm"
      py="xs"
      role="group"
      aria-label={clever.name}
      wrap="wrap"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Stack gap={4} style={{ minWidth: 0, flex: '1 1 12rem' }}>
        <Text fw={700} fz="lg" style={{ overflowWrap: 'anywhere' }}>
          {clever.name}
        </Text>
        <Text fz="sm" c={MUTED_TEXT}>
          Clever id {clever.id}
        </Text>
      </Stack>
      {clever.districtId !== null ? (
        <Text fw={600}>Assigned to {assigned?.name ?? `district ${clever.districtId}`}</Text>
      ) : free.length === 0 ? (
        <Text c={MUTED_TEXT}>Every district has a Clever district already</Text>
      ) : (
        <Group gap="sm" align="flex-end" wrap="wrap">
          <NativeSelect
            size="md"
            label={`Assign ${clever.name} to`}
            value={chosen}
            onChange={(event) => setChosen(event.currentTarget.value)}
            data={[
              { value: '', label: 'Choose a district' },
              ...free.map((district) => ({ value: String(district.id), label: district.name })),
            ]}
          />
          <Button
            size="md"
            disabled={chosen === ''}
            loading={assign.isPending}
            onClick={() => assign.mutate({ districtId: Number(chosen), cleverDistrictId: clever.id })}
          >
            Assign
          </Button>
        </Group>
      )}
    </Group>
  );
}

/**
 * The super admin's Clever districts: each district that shares its data
 * with Curbside in Clever, and the Curbside district it is assigned to. A
 * district admin imports only from the one assigned to their district.
 */
export function CleverAssignments({ districts }: { districts: readonly DistrictWithSchools[] }) {
  const assignments = useQuery(sisQueries.assignments());
  return (
    <Card component="section" aria-labelledby="clever-assignments" p={{ base: 'sm', sm: 'lg' }}>
      <Stack gap="sm">
        <Stack gap={0}>
          <Title order={2} fz="h3" id="clever-assignments">
            Clever Districts
          </Title>
          <Text c={MUTED_TEXT}>
            A district admin imports only from the Clever district assigned to their district.
          </Text>
        </Stack>
        {assignments.isPending ? (
          <Loader size="md" aria-label="Loading Clever districts" />
        ) : assignments.isError ? (
          <Alert color="red" title="The Clever districts could not be read" role="alert">
            {errorMessage(assignments.error)}
          </Alert>
        ) : assignments.data.length === 0 ? (
          <Text role="status">No district shares its data with Curbside in Clever yet.</Text>
        ) : (
          <Stack gap={0}>
            {assignments.data.map((clever) => (
              <AssignmentRow key={clever.id} clever={clever} districts={districts} />
            ))}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
