import { createDb } from '@curbside/store';
import { config } from './config';

/** The table handle, created once per process (per Lambda container). */
export const db = createDb({ table: config.tableName, endpoint: config.dynamoEndpoint });
