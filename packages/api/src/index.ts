export * from './events';
export * from './functions';
export * from './headers';
export * from './route';
export * from './routes';
export * from './schedules';
export * from './security-headers';
export * from './site-caching';
