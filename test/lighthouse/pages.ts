/**
 * The pages issue 57 holds to the phone budget, each as its visitor opens it: the sign-in, the
 * parent portal's sign-in, an invite link from a school's letter, the parent dashboard signed
 * in, the bus driver's page from its private link, and the front queue signed in during a
 * running session with cars waiting.
 */
import { type Client, signedIn } from '../support/client';
import { sessionBody } from '../support/fixtures';

export interface LighthousePage {
  name: string;
  /** Path and query (and fragment) on the laptop runtime. */
  path: string;
  /** The session cookie (`name=value`) the page is opened with, if signed in. */
  cookie?: string;
}

const ok = async <T>(what: string, answer: Promise<{ status: number; body: T }>): Promise<T> => {
  const { status, body } = await answer;
  if (status >= 300) throw new Error(`${what}: ${status} ${JSON.stringify(body)}`);
  return body;
};

const cookieOf = (client: Client) => {
  if (!client.cookie) throw new Error('The sign-in gave no session cookie');
  return client.cookie;
};

/** Signs the accounts in and makes what the pages show (a session with cars, an invite, the driver link). */
export const preparePages = async (url: string): Promise<LighthousePage[]> => {
  const admin = await signedIn(url, 'admin_demo');
  const students = await ok<{ items: Array<{ id: number }> }>(
    'Listing the students',
    admin.get('/api/students'),
  );
  const student = students.items[0];
  if (!student) throw new Error('The demo school has no students');
  const invites = await ok<{ invites: Array<{ url: string }> }>(
    'Making a parent invite',
    admin.post('/api/parent-invites', { studentIds: [student.id] }),
  );
  const invite = new URL(invites.invites[0]?.url as string);
  const links = await ok<{ driverUrl: string }>('Reading the bus links', admin.get('/api/bus-links'));
  const driver = new URL(links.driverUrl);

  const front = await signedIn(url, 'front_demo');
  const session = await ok<{ id: number }>('Starting a session', front.post('/api/sessions', sessionBody()));
  for (const vehicleNumber of ['101', '102', '103', '104', '105']) {
    await ok(
      `Queueing car ${vehicleNumber}`,
      front.post('/api/queue', { sessionId: session.id, vehicleNumber, vehicleType: 'car' }),
    );
  }
  const parent = await signedIn(url, 'parent_demo');

  return [
    { name: 'sign-in (/)', path: '/' },
    { name: 'parent sign-in', path: '/parent-login' },
    { name: 'invite link', path: `${invite.pathname}${invite.search}${invite.hash}` },
    { name: 'parent dashboard', path: '/parent-dashboard', cookie: cookieOf(parent) },
    { name: 'bus driver', path: `${driver.pathname}${driver.search}${driver.hash}` },
    { name: 'front queue', path: '/front-queue', cookie: cookieOf(front) },
  ];
};
