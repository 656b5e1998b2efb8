import { startDynamoLocal } from '@curbside/local';
import type { TestProject } from 'vitest/node';

/** Starts one in-memory DynamoDB Local for the whole run (its access key id goes to every test file). */
export default async function setup(project: TestProject) {
  const dynamo = await startDynamoLocal({ inMemory: true });
  project.provide('dynamoEndpoint', dynamo.endpoint);
  project.provide('dynamoAccessKeyId', dynamo.accessKeyId);
  return async () => {
    await dynamo.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    dynamoAccessKeyId: string;
  }
}
