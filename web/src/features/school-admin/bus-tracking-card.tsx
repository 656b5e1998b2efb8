import { routes } from '@curbside/api';
import { Alert, Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { errorMessage } from '../../lib/http';
import { MUTED_TEXT } from '../../lib/theme';
import { QrImage } from '../pickup-codes/qr-image';
import { schoolLinkQueries } from './links.queries';
import { RotateLinkConfirm, useRotateLink } from './rotate-link';

/** The bus tracking page opens in its own 1200×800 window. */
export const POP_OUT = { width: 1200, height: 800 } as const;

/**
 * Bus Tracking: the school's two private links. Pop Out opens the map link
 * in its own window; QR Code shows the driver link for a driver's phone;
 * Rotate links makes new ones (the old links, and the pages opened with
 * them, stop at once). Read-only in sandbox mode.
 */
export function BusTrackingCard({ readOnly = false }: { readOnly?: boolean }) {
  const [qr, setQr] = useState(false);
  const links = useQuery(schoolLinkQueries.bus());
  const rotation = useRotateLink({
    queryKey: schoolLinkQueries.bus().queryKey,
    route: routes.rotateBusLinks,
    done: 'New bus links made. The old ones no longer work.',
  });
  return (
    <Card component="section" aria-labelledby="bus-tracking" p="lg">
      <Stack gap="sm">
        <Title order={2} id="bus-tracking">
          Bus Tracking
        </Title>
        <Text c={MUTED_TEXT}>
          Follow the buses on the map, or let a driver open the driver page by its QR code. Both links are the
          school's own: share them only with your drivers and staff.
        </Text>
        {links.isError && (
          <Alert color="red" variant="light">
            {errorMessage(links.error)}
          </Alert>
        )}
        <Group>
          <Button
            disabled={!links.data}
            onClick={() =>
              links.data &&
              window.open(
                links.data.mapUrl,
                'bus-tracking',
                `width=${POP_OUT.width},height=${POP_OUT.height}`,
              )
            }
          >
            Pop Out
          </Button>
          <Button variant="default" disabled={!links.data} onClick={() => setQr(true)}>
            QR Code
          </Button>
          <Button variant="default" color="red" disabled={readOnly || !links.data} onClick={rotation.ask}>
            Rotate links
          </Button>
        </Group>
      </Stack>
      <Modal opened={qr} onClose={() => setQr(false)} title="Bus driver page" centered>
        {links.data && (
          <Stack align="center" gap="sm">
            <QrImage text={links.data.driverUrl} label="QR code of the bus driver page" />
            <Text ff="monospace" ta="center" style={{ wordBreak: 'break-all' }}>
              {links.data.driverUrl}
            </Text>
          </Stack>
        )}
      </Modal>
      <RotateLinkConfirm link={rotation} title="Rotate the bus links?" action="Rotate links">
        The driver link and the map link stop working at once, and pages open with them close. Give your
        drivers the new driver link (QR Code) afterwards.
      </RotateLinkConfirm>
    </Card>
  );
}

const StaffBusMap = lazy(async () => ({ default: (await import('../buses/staff-bus-map')).StaffBusMap }));

/** The live-queue map: the school's buses on the shared bus map (loaded with the map, after the page). */
export function LiveMapPanel() {
  return (
    <Suspense fallback={<Card h={420} aria-label="Loading the bus map" />}>
      <StaffBusMap />
    </Suspense>
  );
}
