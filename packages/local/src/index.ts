/** The laptop runtime: DynamoDB Local, the API Gateway emulation and the schedule timers. */
export * from './dynamo';
export * from './events';
export * from './fake-clever';
export * from './gateway';
export * from './lambda';
export * from './mail';
export * from './scheduler';
export * from './static';
export * from './websocket';
export * from './workers';
export * from './ws-events';
