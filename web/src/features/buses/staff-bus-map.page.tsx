import { Container, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { MUTED_TEXT } from '../../lib/theme';
import { StaffBusMap } from './staff-bus-map';

/**
 * `/bus-map` (issue 32): the footer's Live Bus Map for signed-in staff: their
 * school's buses with their own sign-in, no map link needed.
 */
export function StaffBusMapPage() {
  useEffect(() => {
    document.title = 'Live Bus Map · Curbside';
  }, []);
  return (
    <Container size="lg" py="md" px={{ base: 'xs', sm: 'md' }}>
      <Stack gap="md">
        <Title order={1}>Live Bus Map</Title>
        <StaffBusMap />
        <Text c={MUTED_TEXT}>
          Location updates come about every second. A bus turns grey when it has not sent its position for a
          minute, and leaves the map after five minutes.
        </Text>
      </Stack>
    </Container>
  );
}
