import { Container, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { CurbsideMark } from '../../components/logo';
import { LANGUAGES } from '../../lib/i18n';
import { useParentTexts } from './i18n';

/**
 * The frame of every parent screen, phone first: the mark, the language
 * switch (remembered on the device), then the screen in one narrow column.
 */
export function ParentLayout({ children }: { children: ReactNode }) {
  const { t, language, setLanguage } = useParentTexts();
  return (
    <Container size={520} px={{ base: 'sm', sm: 'md' }} py="md">
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap" component="header">
          <Group gap={8} wrap="nowrap">
            <CurbsideMark size={32} />
            <Text fw={800} fz="xl" lh={1}>
              Curbside
            </Text>
          </Group>
          <SegmentedControl
            aria-label={t('language')}
            size="sm"
            value={language}
            onChange={(code) => void setLanguage(code)}
            data={LANGUAGES.map(({ code, label }) => ({ value: code, label }))}
          />
        </Group>
        <main>{children}</main>
      </Stack>
    </Container>
  );
}
