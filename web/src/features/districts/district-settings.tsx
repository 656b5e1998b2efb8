import {
  DEFAULT_TIME_ZONE,
  type District,
  districtEditSchema,
  districtReportCsvRows,
  districtReportFilename,
  type School,
} from '@curbside/domain';
import { Alert, Button, Card, Group, Modal, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { useFieldErrors } from '../../lib/field-errors';
import { errorMessage } from '../../lib/http';
import { MUTED_TEXT } from '../../lib/theme';
import { useDataExport } from '../exports/data-export';
import { toCsvText } from '../rosters/csv-lazy';
import { downloadText } from '../rosters/download';
import { createdOn, Line } from './badges';
import { fetchDistrictReport, useUpdateDistrict } from './districts.queries';

/**
 * Edit District (issue 50, item 13): the district's name and the time zone
 * its new schools take (each school keeps and sets its own in School Settings).
 */
function EditDistrictDialog({ district, onClose }: { district: District; onClose: () => void }) {
  const update = useUpdateDistrict(district.id);
  const [name, setName] = useState(district.name);
  const [timeZone, setTimeZone] = useState(district.timeZone ?? DEFAULT_TIME_ZONE);
  const { errors, show, showServerError } = useFieldErrors();
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = districtEditSchema.safeParse({ name, timeZone });
    if (!parsed.success) {
      show(parsed.error.issues);
      return;
    }
    update.mutate(parsed.data, { onSuccess: onClose, onError: showServerError });
  };
  return (
    <Modal opened onClose={onClose} title="Edit District" centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="District name"
            required
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={errors.name}
            data-autofocus
          />
          <Select
            label="Time zone for new schools"
            description="A new school of the district starts with it; each school sets its own in School Settings."
            searchable
            allowDeselect={false}
            data={zones.includes(timeZone) ? zones : [timeZone, ...zones]}
            value={timeZone}
            onChange={(value) => value && setTimeZone(value)}
            error={errors.timeZone}
            nothingFoundMessage="No such time zone"
            comboboxProps={{ withinPortal: false }}
          />
          {update.isError && (
            <Alert color="red" role="alert">
              {errorMessage(update.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function SettingsTab({ district, schools }: { district: District; schools: School[] }) {
  const [generating, setGenerating] = useState(false);
  const [editing, setEditing] = useState(false);
  const exporting = useDataExport();
  const generate = async () => {
    setGenerating(true);
    try {
      const rows = await fetchDistrictReport(district.id);
      // Each school's start in its own zone (issue 51); the file is named after the district's day.
      const timeZone = district.timeZone ?? DEFAULT_TIME_ZONE;
      downloadText(
        districtReportFilename(district.name, new Date(), timeZone),
        await toCsvText(districtReportCsvRows(rows, timeZone)),
      );
    } catch (error) {
      notifications.show({ color: 'red', title: 'Error', message: errorMessage(error) });
    } finally {
      setGenerating(false);
    }
  };
  return (
    <Card withBorder p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="sm" maw={560}>
        <Title order={2}>District Settings</Title>
        <Line label="District name">{district.name}</Line>
        <Line label="Status">{district.active ? 'Active' : 'Inactive'}</Line>
        <Line label="Created">{createdOn(district.createdAt)}</Line>
        <Line label="Time zone for new schools">{district.timeZone ?? DEFAULT_TIME_ZONE}</Line>
        <Group gap="sm" mt="sm">
          <Button variant="default" onClick={() => setEditing(true)}>
            Edit District
          </Button>
          <Button loading={generating} onClick={() => void generate()}>
            Generate Report
          </Button>
          <Button
            variant="light"
            disabled={schools.length === 0}
            loading={exporting.running !== null}
            onClick={() => void exporting.run(district.name, schools)}
          >
            Export Data
          </Button>
        </Group>
        {exporting.running && (
          <Text role="status">
            Exporting school {Math.min(exporting.running.done + 1, exporting.running.of)} of{' '}
            {exporting.running.of}…
          </Text>
        )}
        <Text c={MUTED_TEXT} fz="sm">
          The report lists each school with its last session's vehicles and average wait (CSV). Export Data
          downloads a zip with a folder per school: its rosters (students with their way home, classrooms,
          teachers, parents, vehicles, programs) and the last year's dismissals, as CSV files.
        </Text>
        <Line label="Clever">{district.cleverId ? 'Connected' : 'Not connected'}</Line>
        <Group>
          <Button component={Link} to="/clever-integration" variant="light">
            Student Information Import
          </Button>
        </Group>
      </Stack>
      {editing && <EditDistrictDialog district={district} onClose={() => setEditing(false)} />}
    </Card>
  );
}
