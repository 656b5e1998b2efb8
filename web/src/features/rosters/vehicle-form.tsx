import { type RosterRef, type VehicleRow, vehicleInputSchema } from '@curbside/domain';
import { SegmentedControl, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { showReplacingToast } from '../../lib/toasts';
import { FormDialog, useRosterForm } from './form';
import { type SchoolScope, useSaveVehicle } from './rosters.queries';
import { StudentPicker } from './student-picker';

/** Add or edit a car or bus: number, looks, contacts, and the students it collects. */
export function VehicleForm({
  schoolId,
  vehicle,
  onClose,
}: {
  schoolId: SchoolScope;
  vehicle: VehicleRow | null;
  onClose: () => void;
}) {
  const save = useSaveVehicle(schoolId);
  const form = useRosterForm(
    vehicleInputSchema,
    {
      number: vehicle?.number ?? '',
      type: vehicle?.type ?? ('car' as 'car' | 'bus'),
      make: vehicle?.make ?? '',
      model: vehicle?.model ?? '',
      color: vehicle?.color ?? '',
      licensePlate: vehicle?.licensePlate ?? '',
      parentName: vehicle?.parentName ?? '',
      parentPhone: vehicle?.parentPhone ?? '',
      alternateContactName: vehicle?.alternateContactName ?? '',
      alternateContactPhone: vehicle?.alternateContactPhone ?? '',
      notes: vehicle?.notes ?? '',
      riders: (vehicle?.students ?? []) as RosterRef[],
      studentIds: (vehicle?.students ?? []).map((student) => student.id),
    },
    async (input) => {
      await save.mutateAsync({ id: vehicle?.id ?? null, input });
      showReplacingToast(vehicle ? 'Vehicle updated' : 'Vehicle added', {
        color: 'green.9',
        title: vehicle ? 'Vehicle updated' : 'Vehicle added',
        message: `${input.type === 'bus' ? 'Bus B' : 'Car '}${input.number}`,
      });
      onClose();
    },
  );
  const isBus = form.values.type === 'bus';
  return (
    <FormDialog
      title={vehicle ? `Edit ${isBus ? 'bus B' : 'car '}${vehicle.number}` : 'Add vehicle'}
      opened
      onClose={onClose}
      onSubmit={(event) => void form.submit(event)}
      saving={form.saving}
      failure={form.failure}
    >
      <Stack gap={4}>
        <Text fw={500} fz="sm">
          Type
        </Text>
        <SegmentedControl
          data={[
            { value: 'car', label: 'Car' },
            { value: 'bus', label: 'Bus' },
          ]}
          value={form.values.type}
          onChange={(value) => form.set('type', value as 'car' | 'bus')}
        />
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Number" required {...form.text('number')} data-autofocus />
        <TextInput label="License plate" {...form.text('licensePlate')} />
        <TextInput label="Make" {...form.text('make')} />
        <TextInput label="Model" {...form.text('model')} />
        <TextInput label="Color" {...form.text('color')} />
        <TextInput label={isBus ? 'Route' : 'Parent name'} {...form.text('parentName')} />
        <TextInput label={isBus ? 'Driver phone' : 'Parent phone'} type="tel" {...form.text('parentPhone')} />
        <TextInput label="Alternate contact" {...form.text('alternateContactName')} />
        <TextInput label="Alternate contact phone" type="tel" {...form.text('alternateContactPhone')} />
      </SimpleGrid>
      <StudentPicker
        schoolId={schoolId}
        label="Students"
        value={form.values.riders}
        onChange={(riders) => {
          form.set('riders', riders);
          form.set(
            'studentIds',
            riders.map((rider) => rider.id),
          );
        }}
        error={form.errors.studentIds}
      />
      <Textarea label="Notes" autosize minRows={2} {...form.text('notes')} />
    </FormDialog>
  );
}
