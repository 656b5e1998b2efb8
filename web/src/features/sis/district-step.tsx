import { Button, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ReadState } from '../../components/read-state';
import { useMe } from '../auth/auth.queries';
import { Choices } from './choices';
import { sisQueries } from './sis.queries';

/** The import page's first step: the Clever district to import from (the one assigned to the caller's district). */
export function DistrictStep(props: {
  selected: string | null;
  onSelect: (id: string) => void;
  importing: boolean;
  onImport: () => void;
  onNext: () => void;
}) {
  const districts = useQuery(sisQueries.districts());
  const { user } = useMe();
  if (!districts.isSuccess)
    return <ReadState query={districts} loading="Loading districts" failed="Failed to fetch districts" />;
  if (districts.data.length === 0)
    return (
      <Text role="status" py="md">
        {user?.role === 'super_admin'
          ? 'No district shares its data with Curbside in Clever yet.'
          : 'No Clever district is assigned to your district yet. Ask your super admin to assign one on the Super Admin Dashboard.'}
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
