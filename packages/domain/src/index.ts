export * from './auth';
export * from './errors';
export * from './format';
export * from './roles';
export * from './schemas';
export * from './sessions';
