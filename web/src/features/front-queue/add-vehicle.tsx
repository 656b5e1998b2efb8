import { type VehicleType, vehicleNumberSchema } from '@curbside/domain';
import { Button, Card, SegmentedControl, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useAddToQueue } from '../queue/queue.queries';

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'Clear', '0', 'Enter'] as const;

/**
 * Add Vehicle to Queue: Car/Bus, the vehicle number (typed or from the
 * on-screen keypad) and Add to Queue. After adding, the number clears and
 * the chosen type stays.
 */
export function AddVehicleCard({ sessionId }: { sessionId: number }) {
  const [vehicleType, setVehicleType] = useState<VehicleType>('car');
  const [vehicleNumber, setVehicleNumber] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useAddToQueue();

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (add.isPending) return;
    const parsed = vehicleNumberSchema.safeParse(vehicleNumber);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Vehicle number is required');
      return;
    }
    setError(null);
    add.mutate(
      { sessionId, vehicleNumber: parsed.data, vehicleType },
      { onSuccess: () => setVehicleNumber('') },
    );
  };

  const type = (digits: string) => {
    setError(null);
    setVehicleNumber(digits);
  };

  const onKey = (key: (typeof KEYS)[number]) => {
    if (key === 'Clear') type('');
    else if (key === 'Enter') submit();
    else type(`${vehicleNumber}${key}`.slice(0, 12));
  };

  return (
    <Card h="100%" p={{ base: 'sm', sm: 'lg' }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Title order={2}>Add Vehicle to Queue</Title>
          <SegmentedControl
            fullWidth
            size="xl"
            aria-label="Vehicle type"
            value={vehicleType}
            onChange={(value) => setVehicleType(value as VehicleType)}
            data={[
              { label: 'Car', value: 'car' },
              { label: 'Bus', value: 'bus' },
            ]}
          />
          <TextInput
            label="Vehicle Number"
            size="xl"
            value={vehicleNumber}
            onChange={(event) => type(event.currentTarget.value)}
            error={error}
            inputMode="numeric"
            autoComplete="off"
            styles={{ input: { fontSize: 32, fontWeight: 800, letterSpacing: 2, textAlign: 'center' } }}
          />
          <SimpleGrid cols={3} spacing="xs" role="group" aria-label="Keypad">
            {KEYS.map((key) => (
              <Button
                key={key}
                type="button"
                h={64}
                px={0}
                fz={key.length > 1 ? 20 : 28}
                fw={800}
                variant={key === 'Enter' ? 'filled' : key === 'Clear' ? 'outline' : 'default'}
                color={key === 'Clear' ? 'red' : undefined}
                onClick={() => onKey(key)}
              >
                {key}
              </Button>
            ))}
          </SimpleGrid>
          <Button type="submit" size="xl" h={72} fz={24} fullWidth disabled={add.isPending}>
            {add.isPending ? 'Adding...' : 'Add to Queue'}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
