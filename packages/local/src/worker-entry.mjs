/**
 * A worker thread of the laptop runtime starts here: TypeScript is loaded
 * through tsx (as `npm start` loads the main thread), then the worker itself.
 */
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
