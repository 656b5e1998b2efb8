import { Button, Card, Center, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { QrImage } from '../pickup-codes/qr-image';
import { MUTED_TEXT } from '../queue/colors';

/** The bus tracking page opens in its own 1200×800 window. */
export const POP_OUT = { width: 1200, height: 800 } as const;

/**
 * Bus Tracking: Pop Out opens the public bus tracking page in its own window;
 * QR Code shows the bus driver page's address for a driver's phone. (The bus
 * issue replaces both with the school's private, tokened links.)
 */
export function BusTrackingCard() {
  const [qr, setQr] = useState(false);
  const driverUrl = `${window.location.origin}/bus-driver`;
  return (
    <Card component="section" aria-labelledby="bus-tracking" p="lg">
      <Stack gap="sm">
        <Title order={2} id="bus-tracking">
          Bus Tracking
        </Title>
        <Text c={MUTED_TEXT}>
          Follow the buses on the map, or let a driver open the driver page by its QR code.
        </Text>
        <Group>
          <Button
            onClick={() =>
              window.open('/bus-tracking', 'bus-tracking', `width=${POP_OUT.width},height=${POP_OUT.height}`)
            }
          >
            Pop Out
          </Button>
          <Button variant="default" onClick={() => setQr(true)}>
            QR Code
          </Button>
        </Group>
      </Stack>
      <Modal opened={qr} onClose={() => setQr(false)} title="Bus driver page" centered>
        <Stack align="center" gap="sm">
          <QrImage text={driverUrl} label="QR code of the bus driver page" />
          <Text ff="monospace" ta="center">
            {driverUrl}
          </Text>
        </Stack>
      </Modal>
    </Card>
  );
}

/** The live-queue map: empty until drivers share positions (the shared bus map lands with bus tracking). */
export function LiveMapPanel() {
  return (
    <Card component="section" aria-labelledby="live-map" p="lg">
      <Stack gap="sm">
        <Title order={2} id="live-map">
          Live Queue Map
        </Title>
        <Center
          h={320}
          style={{
            borderRadius: 'var(--mantine-radius-md)',
            background: 'var(--mantine-color-default-hover)',
          }}
        >
          <Stack gap={4} align="center" ta="center" px="md">
            <Text fw={700} fz="lg">
              No buses currently tracking
            </Text>
            <Text c={MUTED_TEXT}>Buses will appear here when drivers start tracking</Text>
          </Stack>
        </Center>
      </Stack>
    </Card>
  );
}
