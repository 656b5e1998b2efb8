export * from './auth';
export * from './errors';
export * from './roles';
export * from './schemas';
export * from './sessions';
