import { Title } from '@mantine/core';

/** The front queue screen (work in progress). */
export function FrontQueuePage() {
  return <Title order={1}>Front Queue</Title>;
}
