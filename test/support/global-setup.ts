import { startDynamoLocal } from '@curbside/local';
import type { TestProject } from 'vitest/node';

type Dynamo = Awaited<ReturnType<typeof startDynamoLocal>>;

/** One DynamoDB Local for the whole run, however many projects ask for it. */
let dynamo: Promise<Dynamo> | undefined;
let users = 0;

/** Starts one in-memory DynamoDB Local for the whole run (its access key id goes to every test file). */
export default async function setup(project: TestProject) {
  dynamo ??= startDynamoLocal({ inMemory: true });
  users += 1;
  const { endpoint, accessKeyId } = await dynamo;
  project.provide('dynamoEndpoint', endpoint);
  project.provide('dynamoAccessKeyId', accessKeyId);
  return async () => {
    users -= 1;
    if (users === 0) await (await dynamo)?.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    dynamoAccessKeyId: string;
  }
}
