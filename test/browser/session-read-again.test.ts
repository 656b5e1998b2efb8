import { expect, it } from 'vitest';
import { webBundleSuite } from '../support/web-bundle';

/**
 * Issue 57 (h57u): the live connection's first opening reads every list again, the running session
 * too. What `useActiveSession` gives (the session, whether its first read is on its way) does not
 * change with a read again that answers the same, but TanStack Query told its readers of the read's
 * start and end (its `fetchStatus`), and React drew each again at once, the staff shell among
 * them, twice. Here the app's `useActiveSession` (bundled with React's production build and TanStack
 * Query as the app has them) is read again with the same answer: its reader is not drawn again;
 * a read that answers a new session is shown.
 */
const entry = `
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot } from 'react-dom/client';
import { useActiveSession } from './src/features/sessions/sessions.queries';
import { ACTIVE_SESSION_KEY } from './src/lib/query-keys';

window.draws = 0;
function Reader() {
  window.draws += 1;
  const { session, isLoading, isReading } = useActiveSession();
  return <span data-session>{session ? session.id : 'none'}{isLoading || isReading ? ' reading' : ''}</span>;
}
const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
client.setQueryData(['auth', 'me'], { id: 'u1', role: 'front_queue_wrangler', schoolId: 's1', districtId: null });
window.readAgain = () => client.invalidateQueries({ queryKey: ACTIVE_SESSION_KEY, exact: true });
window.reading = () => client.getQueryState(ACTIVE_SESSION_KEY).fetchStatus;
createRoot(document.getElementById('root')).render(
  <QueryClientProvider client={client}><Reader /></QueryClientProvider>,
);
`;

const suite = webBundleSuite(entry);

it('draws a reader of the running session again only when what it reads changes', async () => {
  const page = await suite.browser.newPage();
  let answer = 'null';
  let asked = 0;
  await page.route('https://curbside.test/**', (route) => {
    if (new URL(route.request().url()).pathname !== '/api/sessions/active')
      return route.fulfill({ contentType: 'text/html', body: '<div id="root"></div>' });
    asked += 1;
    return route.fulfill({ contentType: 'application/json', body: answer });
  });
  await page.goto('https://curbside.test/');
  await page.addScriptTag({ content: suite.script });
  // Its first read answered: no session.
  await expect.poll(() => page.locator('[data-session]').textContent()).toBe('none');
  expect(asked).toBe(1);
  const drawn = (await page.evaluate('window.draws')) as number;
  // Read again, the same answer: asked, answered, the reader not drawn again.
  await page.evaluate('window.readAgain()');
  await expect.poll(() => asked).toBe(2);
  await expect.poll(() => page.evaluate('window.reading()')).toBe('idle');
  expect(await page.evaluate('window.draws')).toBe(drawn);
  // Read again, a session started meanwhile: shown.
  answer = JSON.stringify({ id: 'sess-2', schoolId: 's1', status: 'ACTIVE' });
  await page.evaluate('window.readAgain()');
  await expect.poll(() => page.locator('[data-session]').textContent()).toBe('sess-2');
  await page.close();
});
