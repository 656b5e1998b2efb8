export * from './auth';
export * from './car-line';
export * from './errors';
export * from './format';
export * from './queue';
export * from './roles';
export * from './schemas';
export * from './sessions';
