export * from './events';
export * from './route';
export * from './routes';
export * from './schedules';
