import { routes } from '@curbside/api';
import type { ArrivalInput, ArrivalOpening, ArrivalState } from '@curbside/domain';
import { Alert, Button, Card, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../lib/api';
import { errorMessage } from '../../lib/http';
import { useLiveEvent } from '../live/live';
import { useParentTexts } from './i18n';
import { usePainted } from './largest-paint';
import { parentQueries } from './parent.queries';

/** Chromium's view of the page's Permissions-Policy (absent in other browsers). */
type PolicyDocument = Document & { featurePolicy?: { allowsFeature(feature: string): boolean } };

/**
 * The phone's position for "I'm here": asked fresh each time, never kept by
 * the app. The server lets `/parent-dashboard` ask for it (Permissions-Policy);
 * a page that came here from another parent page without a full load still
 * has that page's policy: it loads the dashboard afresh, and the parent taps
 * again.
 */
const currentPosition = () =>
  new Promise<NonNullable<ArrivalInput['position']>>((resolve, reject) => {
    if ((document as PolicyDocument).featurePolicy?.allowsFeature('geolocation') === false) {
      window.location.reload();
      reject(new Error('reloading'));
      return;
    }
    if (!('geolocation' in navigator)) {
      reject(new Error('no-geolocation'));
      return;
    }
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => resolve({ lat: coords.latitude, lon: coords.longitude, accuracy: coords.accuracy }),
      () => reject(new Error('no-location')),
      { enableHighAccuracy: true, timeout: 20_000, maximumAge: 0 },
    );
  });

/** One school where the family may announce: the two buttons and what the school was told. */
function ArrivalSchoolCard({ opening }: { opening: ArrivalOpening }) {
  const { t, serverText } = useParentTexts();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const [locating, setLocating] = useState(false);
  const announce = useMutation({
    mutationFn: async (state: ArrivalState) => {
      let position: ArrivalInput['position'];
      if (state === 'here' && opening.needsPosition) {
        setLocating(true);
        try {
          position = await currentPosition();
        } catch (error) {
          throw new Error(
            t((error as Error).message === 'no-geolocation' ? 'arrival.noGeolocation' : 'arrival.noLocation'),
          );
        } finally {
          setLocating(false);
        }
      }
      return api(routes.announceArrival, {
        body: { state, schoolId: opening.schoolId, ...(position ? { position } : {}) },
      });
    },
    onMutate: () => setProblem(null),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: parentQueries.arrivals().queryKey });
      void queryClient.invalidateQueries({ queryKey: parentQueries.status().queryKey });
    },
    onError: (error) => setProblem(serverText(errorMessage(error))),
  });
  const arrival = opening.arrival;
  const busy = (state: ArrivalState) => announce.isPending && announce.variables === state;
  return (
    <Card component="section" aria-label={t('arrival.title')} p="md">
      <Stack gap="sm">
        <Title order={2} fz={20}>
          {t('arrival.title')}
        </Title>
        <Text>{t('arrival.intro', { school: opening.schoolName ?? '' })}</Text>
        {arrival && (
          <Alert color="green.9" variant="filled" role="status">
            <Text fw={700}>
              {t(arrival.state === 'here' ? 'arrival.announcedHere' : 'arrival.announcedOnTheWay')}
            </Text>
            {arrival.vehicleNumber === null ? (
              <Text>{t('arrival.onFoot')}</Text>
            ) : (
              arrival.entryId && <Text>{t('arrival.queued')}</Text>
            )}
          </Alert>
        )}
        {problem && (
          <Alert color="red" role="alert" title={t('arrival.failed')}>
            {problem}
          </Alert>
        )}
        <Stack gap="xs">
          <Button
            size="lg"
            fullWidth
            variant={arrival?.state === 'on_the_way' ? 'filled' : 'default'}
            loading={busy('on_the_way')}
            disabled={announce.isPending && !busy('on_the_way')}
            onClick={() => announce.mutate('on_the_way')}
          >
            {t('arrival.onTheWay')}
          </Button>
          <Button
            size="lg"
            fullWidth
            loading={busy('here')}
            disabled={announce.isPending && !busy('here')}
            onClick={() => announce.mutate('here')}
          >
            {t('arrival.here')}
          </Button>
        </Stack>
        {locating && (
          <Text c="dimmed" fz="sm" role="status">
            {t('arrival.locating')}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

/**
 * "I'm on my way" / "I'm here" (issue 53): shown only while a school of the
 * family runs a pickup session and takes announcements. Read once the
 * dashboard has been painted (`usePainted`, issue 57: as before, the cards come
 * after its first paint, and their read no longer ends in that paint's
 * window), then again with the parent's status (live messages, the 30 s poll).
 */
export function ArrivalCards() {
  const painted = usePainted();
  const queryClient = useQueryClient();
  const openings = useQuery({ ...parentQueries.arrivals(), enabled: painted });
  useLiveEvent(['STUDENT_STATUS_UPDATE', 'QUEUE_UPDATE'], () => {
    void queryClient.invalidateQueries({ queryKey: parentQueries.arrivals().queryKey });
  });
  return (
    <>
      {(openings.data?.schools ?? []).map((opening) => (
        <ArrivalSchoolCard key={opening.schoolId} opening={opening} />
      ))}
    </>
  );
}
