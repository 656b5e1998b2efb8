import type { District, School } from '@curbside/domain';
import { Badge, Button, Card, Group, SimpleGrid, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { CreateSchoolDialog } from './admin-dialogs';
import { ActiveBadge, createdOn, EmptyState, Line } from './badges';
import { useConfirmMode } from './confirm-mode';
import { useSchoolSandbox } from './districts.queries';

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

export function SchoolsTab({ district, schools }: { district: District; schools: readonly School[] }) {
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
