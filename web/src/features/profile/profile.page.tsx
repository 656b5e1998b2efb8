import { Card, Container, Stack, Table, Title } from '@mantine/core';
import { useMe } from '../auth/auth.queries';
import { roleLabelOf } from '../shell/user-menu';

/** `/profile`: the signed-in user's own fields. */
export function ProfilePage() {
  const { user } = useMe();
  if (!user) return null;
  const rows: Array<[string, string]> = [
    ['Name', user.name],
    ['Username', user.username],
    ['Email', user.email ?? 'Not set'],
    ['Phone', user.phone ?? 'Not set'],
    ['Role', roleLabelOf(user.role)],
    ['School ID', user.schoolId === null ? 'None' : String(user.schoolId)],
  ];
  return (
    <Container size="sm" py="xl" px={{ base: 'xs', sm: 'md' }}>
      <Card p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="md">
          <Title order={1}>Profile</Title>
          <Table fz="lg" verticalSpacing="sm" variant="vertical" layout="fixed" withTableBorder>
            <Table.Tbody>
              {rows.map(([label, value]) => (
                <Table.Tr key={label}>
                  <Table.Th w={140}>{label}</Table.Th>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      </Card>
    </Container>
  );
}
