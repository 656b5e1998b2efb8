import { PlaceholderPage } from '../placeholder/placeholder.page';

/** The teacher screen (students to send out, releases, pickup codes). */
export function TeacherPage() {
  return <PlaceholderPage title="Teacher" />;
}
