export * from './errors';
export * from './roles';
export * from './schemas';
