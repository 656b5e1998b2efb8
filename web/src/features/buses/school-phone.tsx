import { DRIVER_LINK_REPLACED, telHref } from '@curbside/domain';
import { Alert, Button, Container, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { HttpError } from '../../lib/http';
import { driverQueries } from './driver.queries';

/** Where the driver page keeps the school's phone for its link: a page offline still has it. */
const PHONE_KEY = 'curbside-school-phone';

const keptPhone = (token: string): string | null => {
  try {
    const kept = JSON.parse(localStorage.getItem(PHONE_KEY) ?? 'null') as { token?: string; phone?: string };
    return kept?.token === token && typeof kept.phone === 'string' ? kept.phone : null;
  } catch {
    return null;
  }
};

/** A driver link's answer that the office replaced it (issue 50): 401 `{ replaced: true, schoolPhone }`. */
export const replacedLink = (error: unknown): { schoolPhone: string | null } | null => {
  if (!(error instanceof HttpError) || error.status !== 401) return null;
  const body = error.body as { replaced?: unknown; schoolPhone?: unknown } | null;
  if (body?.replaced !== true) return null;
  return { schoolPhone: typeof body.schoolPhone === 'string' ? body.schoolPhone : null };
};

/**
 * The school's phone for the driver page (issue 50): read with the driver
 * link when the page opens and kept on the device, so the page can offer it
 * whenever an alert cannot be sent, offline too. Null while unknown, or when
 * the school has none.
 */
export const useSchoolPhone = (token: string | null): string | null => {
  const contact = useQuery(driverQueries.contact(token));
  const phone = contact.data?.schoolPhone;
  useEffect(() => {
    if (token === null || phone === undefined) return;
    try {
      if (phone === null) localStorage.removeItem(PHONE_KEY);
      else localStorage.setItem(PHONE_KEY, JSON.stringify({ token, phone }));
    } catch {
      // A device that keeps nothing still shows the number while the page is open.
    }
  }, [token, phone]);
  if (phone !== undefined) return phone;
  return replacedLink(contact.error)?.schoolPhone ?? (token ? keptPhone(token) : null);
};

/** The school's phone as a tap-to-call link (a phone dials it), or nothing when the school has none. */
export function CallTheSchool({ phone }: { phone: string | null }) {
  if (!phone) return null;
  return (
    // Two lines, so a long number is never cut on a narrow phone.
    <Button
      component="a"
      href={telHref(phone)}
      color="green.9"
      fullWidth
      h="auto"
      mih={64}
      py={8}
      styles={{ label: { whiteSpace: 'normal', flexDirection: 'column', textAlign: 'center' } }}
    >
      <Text span fz="md" fw={700} inherit>
        Call the school:
      </Text>{' '}
      <Text span fz="xl" fw={900} inherit style={{ overflowWrap: 'anywhere' }}>
        {phone}
      </Text>
    </Button>
  );
}

/**
 * Under the alert buttons when an alert could not be sent, for whatever
 * reason (offline, refused, the link replaced): what failed, and the
 * school's number to call instead, so an emergency always has a way out.
 */
export function AlertNotSent({
  kind,
  reason,
  phone,
}: {
  kind: string;
  reason: string;
  phone: string | null;
}) {
  return (
    <Alert color="red.9" variant="outline" role="alert" title={`Your ${kind} was not sent`}>
      <Stack gap="sm">
        <Text fz="md" c="var(--mantine-color-text)">
          {reason}
        </Text>
        {phone ? (
          <>
            <Text fz="md" fw={700} c="var(--mantine-color-text)">
              Call the school office instead:
            </Text>
            <CallTheSchool phone={phone} />
          </>
        ) : (
          <Text fz="md" fw={700} c="var(--mantine-color-text)">
            Call the school office instead.
          </Text>
        )}
      </Stack>
    </Alert>
  );
}

/** The driver page once the office replaced its link: it says so, tracks nothing, and offers the school's number. */
export function LinkReplaced({ title, phone }: { title: string; phone: string | null }) {
  return (
    <Container size="xs" py="md" px="sm">
      <Stack gap="md">
        <Title order={1}>{title}</Title>
        <Alert color="orange.9" variant="outline" role="alert" fz="lg">
          <Text fz="lg" fw={700} c="var(--mantine-color-text)">
            {DRIVER_LINK_REPLACED}
          </Text>
        </Alert>
        <CallTheSchool phone={phone} />
      </Stack>
    </Container>
  );
}
