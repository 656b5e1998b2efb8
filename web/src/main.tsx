// First: zod's configuration under the site's CSP, before any module that builds a schema.
import './lib/zod-jitless';
// Mantine's global styles; each component's own come with the code that uses it (web/mantine-styles.ts).
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import '@mantine/notifications/styles.layer.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The app shell's service worker (web/service-worker/sw.js), once the page has loaded: a
// tablet reloaded without a connection still opens its car-line screen.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  addEventListener('load', () => navigator.serviceWorker.register('/sw.js').catch(() => {}));
}

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
