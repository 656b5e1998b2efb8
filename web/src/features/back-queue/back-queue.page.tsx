import { PlaceholderPage } from '../placeholder/placeholder.page';

/** The back queue screen (batches, overflow). */
export function BackQueuePage() {
  return <PlaceholderPage title="Back Queue" />;
}
