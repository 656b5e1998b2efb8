import { PLACARD_LIMITS, PLACARD_PRINT_DELAY_MS, placardsFor, plural } from '@curbside/domain';
import {
  Alert,
  Button,
  Card,
  Center,
  Checkbox,
  Container,
  Group,
  Loader,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { MUTED_TEXT } from '../../lib/theme';
import { useMe } from '../auth/auth.queries';
import { rosterQueries } from '../rosters/rosters.queries';
import { useSchoolScope } from '../school-admin/school-admin.page';
import { placardsHtml } from './placards-html';
import { placardQueries } from './print-placards.queries';

/** Opens the sheets in a print window and prints them 250 ms later (the window lays out first). */
export const printPlacards = (html: string) => {
  const win = window.open('', 'placards', 'width=1000,height=800');
  if (!win) return false;
  win.document.open();
  win.document.write(html);
  win.document.close();
  win.setTimeout(() => {
    win.focus();
    win.print();
  }, PLACARD_PRINT_DELAY_MS);
  return true;
};

/**
 * Print placards (specification §2): a preview of the sheets and Print All.
 * Print All prints every active vehicle of the school, as it says; a box
 * limits the sheets to the first 10 cars and 5 buses by number.
 */
export function PrintPlacardsPage() {
  const { user } = useMe();
  const scope = useSchoolScope(user);
  const [firstOnly, setFirstOnly] = useState(false);
  const [blocked, setBlocked] = useState(false);
  const summary = useQuery({ ...rosterQueries.summary(scope, null), enabled: user !== null });
  const vehicles = useQuery({ ...placardQueries.vehicles(scope), enabled: user !== null });
  const placards = useMemo(() => placardsFor(vehicles.data ?? [], !firstOnly), [vehicles.data, firstOnly]);
  const schoolId = summary.data?.school.id ?? null;
  const html = useMemo(
    () => placardsHtml(placards, summary.data?.school.name, schoolId),
    [placards, summary.data, schoolId],
  );
  if (!user) return null;
  const cars = placards.filter((p) => p.type === 'car').length;
  const buses = placards.length - cars;
  const back = scope === undefined ? '/school-admin' : `/school-admin?schoolId=${scope}`;
  return (
    <Container size="xl" px={{ base: 'xs', sm: 'md' }} py="md">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end">
          <Stack gap={0}>
            <Title order={1}>Print Placards</Title>
            <Text c={MUTED_TEXT}>{summary.data?.school.name ?? ''}</Text>
          </Stack>
          <Group>
            <Button component={Link} to={back} variant="default">
              Back
            </Button>
            <Button
              onClick={() => setBlocked(!printPlacards(html))}
              disabled={vehicles.isPending || placards.length === 0}
            >
              Print All
            </Button>
          </Group>
        </Group>
        {blocked && (
          <Alert color="red" role="alert">
            The browser blocked the print window. Allow pop-ups for this site and press Print All again.
          </Alert>
        )}
        <Card>
          <Group justify="space-between">
            <Checkbox
              label={`Only the first ${PLACARD_LIMITS.car} cars and ${PLACARD_LIMITS.bus} buses`}
              description="By number; otherwise every active vehicle"
              checked={firstOnly}
              onChange={(event) => setFirstOnly(event.currentTarget.checked)}
            />
            <Text fw={600}>
              {plural(cars, 'car')}, {plural(buses, 'bus', 'buses')}
            </Text>
          </Group>
        </Card>
        {vehicles.isPending ? (
          <Center py="xl">
            <Loader aria-label="Loading vehicles" />
          </Center>
        ) : (
          <Card p={0} style={{ overflow: 'hidden' }}>
            <iframe
              title="Placards preview"
              srcDoc={html}
              style={{ width: '100%', height: '80vh', border: 0, background: '#fff', display: 'block' }}
            />
          </Card>
        )}
      </Stack>
    </Container>
  );
}
