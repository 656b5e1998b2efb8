export * from './events';
export * from './functions';
export * from './headers';
export * from './metrics';
export * from './route';
export * from './routes';
export * from './schedules';
export * from './security-headers';
