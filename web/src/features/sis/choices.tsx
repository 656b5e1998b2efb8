import { Radio, Stack } from '@mantine/core';

/** One Clever record to pick, by name, with what tells it apart. */
export function Choices(props: {
  label: string;
  selected: string | null;
  onSelect: (id: string) => void;
  options: Array<{ id: string; name: string; detail: string }>;
}) {
  return (
    <Radio.Group
      label={props.label}
      value={props.selected}
      onChange={props.onSelect}
      styles={{ label: { fontWeight: 700 } }}
    >
      <Stack gap="sm" mt="xs">
        {props.options.map((option) => (
          <Radio key={option.id} value={option.id} label={option.name} description={option.detail} />
        ))}
      </Stack>
    </Radio.Group>
  );
}
