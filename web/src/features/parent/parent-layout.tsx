import { Container, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { CurbsideMark } from '../../components/logo';
import { LanguageSwitch } from './language-switch';
import { PaintedProvider } from './largest-paint';

/**
 * The frame of every parent screen, phone first: the mark, the language
 * switch (remembered on the device), then the screen in one narrow column.
 * It is drawn with the screen's content, and holds whether that has been
 * painted (`usePainted`: the switch, and the dashboard's parts after its paint).
 */
export function ParentLayout({ children }: { children: ReactNode }) {
  return (
    <PaintedProvider>
      <Container size={520} px={{ base: 'sm', sm: 'md' }} py="md">
        <Stack gap="md">
          <Group justify="space-between" wrap="nowrap" component="header">
            <Group gap={8} wrap="nowrap">
              <CurbsideMark size={32} />
              <Text fw={800} fz="xl" lh={1}>
                Curbside
              </Text>
            </Group>
            <LanguageSwitch />
          </Group>
          <main>{children}</main>
        </Stack>
      </Container>
    </PaintedProvider>
  );
}
