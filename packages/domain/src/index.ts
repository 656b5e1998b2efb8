export * from './auth';
export * from './errors';
export * from './format';
export * from './queue';
export * from './roles';
export * from './schemas';
export * from './sessions';
