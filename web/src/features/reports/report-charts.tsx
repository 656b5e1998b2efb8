import '@mantine/charts/styles.layer.css';
import type { ReportPickup } from '@curbside/domain';
import { pickupsPerMinute, waitDistribution } from '@curbside/domain/report';
import { BarChart } from '@mantine/charts';
import { Card, SimpleGrid, Text } from '@mantine/core';

const minuteLabel = (minute: string) =>
  new Date(minute).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });

/**
 * The report's two charts: cars picked up per minute, and how long the cars
 * waited (queued to picked up). Loaded lazily: the chart library is in this
 * chunk only.
 */
export default function ReportCharts({ pickups }: { pickups: readonly ReportPickup[] }) {
  const perMinute = pickupsPerMinute(pickups).map((point) => ({
    ...point,
    minute: minuteLabel(point.minute),
  }));
  const waits = waitDistribution(pickups);
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      <Card withBorder p="md" component="section" aria-label="Cars per minute">
        <Text fw={700} mb="sm">
          Cars per minute
        </Text>
        {perMinute.length === 0 ? (
          <Text c="dimmed">No pickups yet.</Text>
        ) : (
          <BarChart
            h={240}
            data={perMinute}
            dataKey="minute"
            series={[{ name: 'cars', color: 'blue.7', label: 'Cars' }]}
          />
        )}
      </Card>
      <Card withBorder p="md" component="section" aria-label="Wait distribution">
        <Text fw={700} mb="sm">
          Wait distribution
        </Text>
        <BarChart
          h={240}
          data={waits}
          dataKey="label"
          series={[{ name: 'cars', color: 'teal.7', label: 'Cars' }]}
        />
      </Card>
    </SimpleGrid>
  );
}
