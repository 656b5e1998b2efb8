export * from './events';
export * from './headers';
export * from './route';
export * from './routes';
export * from './schedules';
