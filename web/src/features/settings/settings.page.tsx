import { Card, Container, Group, Radio, Stack, Text, Title } from '@mantine/core';
import {
  THEME_LABEL,
  THEME_PREFERENCES,
  type ThemePreference,
  useThemePreference,
} from '../theme/theme-preference';

const THEME_HINT: Readonly<Record<ThemePreference, string>> = {
  light: 'The standard light screen.',
  dark: 'Dark background, easier on the eyes indoors and at dusk.',
  bright: 'Highest contrast for direct sunlight outdoors.',
  system: "Follows this device's light or dark setting.",
};

/** `/settings`: the theme choice (the same one as the header menu), kept on this device. */
export function SettingsPage() {
  const [theme, setTheme] = useThemePreference();
  return (
    <Container size="sm" py="xl" px={{ base: 'xs', sm: 'md' }}>
      <Card p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="md">
          <Title order={1}>Settings</Title>
          <Radio.Group
            label="Theme"
            description="Saved on this device."
            value={theme}
            onChange={(value) => setTheme(value as ThemePreference)}
            size="lg"
          >
            <Stack gap="sm" mt="sm">
              {THEME_PREFERENCES.map((option) => (
                <Radio.Card key={option} value={option} p="md" radius="md">
                  <Group wrap="nowrap" align="flex-start" gap="md">
                    <Radio.Indicator size="md" mt={4} />
                    <Stack gap={2}>
                      <Text fw={700} fz="lg">
                        {THEME_LABEL[option]}
                      </Text>
                      <Text c="dimmed">{THEME_HINT[option]}</Text>
                    </Stack>
                  </Group>
                </Radio.Card>
              ))}
            </Stack>
          </Radio.Group>
        </Stack>
      </Card>
    </Container>
  );
}
