export * from './connection';
export * from './db';
export * from './district';
export * from './health';
export { nextId } from './ids';
export * from './school';
export * from './table';
export * from './user';
