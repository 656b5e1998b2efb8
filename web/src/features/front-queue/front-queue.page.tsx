import { Center, Container, Grid, Loader, Stack } from '@mantine/core';
import { AlertPanel } from '../alerts/alert-panel';
import { useMe } from '../auth/auth.queries';
import { NoActiveSession } from '../queue/no-active-session';
import { QueueList } from '../queue/queue-list';
import { RecentPickups } from '../queue/recent-pickups';
import { useActiveSession } from '../sessions/sessions.queries';
import { AddVehicleCard } from './add-vehicle';

export const FRONT_QUEUE_LOCATION = 'Front Queue';

/**
 * The front queue screen: alerts for the front of the line, the add-vehicle
 * keypad (one third), the live queue (two thirds) and recent pickups below.
 */
export function FrontQueuePage() {
  const { user } = useMe();
  const { session, isLoading } = useActiveSession();
  if (!user) return null;
  if (isLoading) {
    return (
      <Center py="xl">
        <Loader size="xl" aria-label="Loading" />
      </Center>
    );
  }
  if (!session) return <NoActiveSession />;
  return (
    <Container fluid px={{ base: 'xs', sm: 'md' }} py="md">
      <Stack gap="md">
        <AlertPanel sessionId={session.id} location={FRONT_QUEUE_LOCATION} />
        <Grid gutter="md">
          <Grid.Col span={{ base: 12, md: 4 }}>
            <AddVehicleCard sessionId={session.id} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 8 }}>
            <QueueList sessionId={session.id} />
          </Grid.Col>
        </Grid>
        <RecentPickups sessionId={session.id} />
      </Stack>
    </Container>
  );
}
