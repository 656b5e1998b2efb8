import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { MUTED_TEXT } from '../../lib/theme';
import { useDataExport } from '../exports/data-export';
import { healthQueries } from '../health/health.queries';
import { useLiveStatus } from '../live/live';

function Tile({ title, text, action }: { title: string; text: string; action: ReactNode }) {
  return (
    <Card withBorder p="md">
      <Stack gap="xs" h="100%" justify="space-between">
        <Stack gap={4}>
          <Text fw={700} fz="lg">
            {title}
          </Text>
          <Text c={MUTED_TEXT} fz="sm">
            {text}
          </Text>
        </Stack>
        {action}
      </Stack>
    </Card>
  );
}

/**
 * Reports and Configuration: Print Placards, Session Reports, School
 * Settings, Export Data (the school's rosters and dismissals as CSV files in a
 * zip) and System Status (live connection, and the database from the health
 * check).
 */
export function ReportsGrid({
  placardsHref,
  settingsHref = '/school-settings',
  school,
}: {
  placardsHref: string;
  settingsHref?: string;
  /** The school the screen is about (its export). */
  school: { id: number; name: string };
}) {
  const exporting = useDataExport();
  const { state } = useLiveStatus();
  const connected = state === 'open';
  // The health check reads the table: Online when it answers, Offline when it fails (read every 30 s).
  const health = useQuery({ ...healthQueries.status(), refetchInterval: 30_000, retry: false });
  const database = health.isSuccess ? 'Online' : health.isError ? 'Offline' : 'Checking...';
  return (
    <Card component="section" aria-labelledby="reports" p={{ base: 'sm', sm: 'lg' }}>
      <Stack gap="md">
        <Title order={2} id="reports">
          Reports and Configuration
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md">
          <Tile
            title="Print Placards"
            text="Car placards and lanyards for the car line."
            action={
              <Button component={Link} to={placardsHref}>
                Print Placards
              </Button>
            }
          />
          <Tile
            title="Session Reports"
            text="Every dismissal: who released each child, to which car, and when."
            action={
              <Button component={Link} to="/session-reports">
                Session Reports
              </Button>
            }
          />
          <Tile
            title="School Settings"
            text="Batch sizes, session times and more."
            action={
              <Button component={Link} to={settingsHref}>
                School Settings
              </Button>
            }
          />
          <Tile
            title="Export Data"
            text="The school's rosters and the last year's dismissals, as CSV files in a zip."
            action={
              <Button
                variant="light"
                loading={exporting.running !== null}
                onClick={() => void exporting.run(school.name, [school])}
              >
                Export Data
              </Button>
            }
          />
          <Card withBorder p="md" component="section" aria-label="System Status">
            <Stack gap="xs">
              <Text fw={700} fz="lg">
                System Status
              </Text>
              <Group justify="space-between">
                <Text>Live connection</Text>
                <Badge color={connected ? 'green.9' : 'red'} variant="filled">
                  {connected ? 'Connected' : 'Disconnected'}
                </Badge>
              </Group>
              <Group justify="space-between">
                <Text>Database</Text>
                <Badge
                  color={database === 'Online' ? 'green.9' : database === 'Offline' ? 'red.9' : 'gray.7'}
                  variant="filled"
                >
                  {database}
                </Badge>
              </Group>
            </Stack>
          </Card>
        </SimpleGrid>
      </Stack>
    </Card>
  );
}
