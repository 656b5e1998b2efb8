import { config } from './config';
import { connectionsDb } from './context';
import { createManagementClient, createPublisher, type Publisher } from './publisher';

let publisher: Publisher | undefined;

/**
 * The process's publisher, made on first use from WS_MANAGEMENT_ENDPOINT; on a
 * laptop it posts in-process to the runtime that registered that endpoint.
 */
export const live = (): Publisher => {
  if (!publisher) {
    if (!config.wsManagementEndpoint)
      throw new Error('Environment variable WS_MANAGEMENT_ENDPOINT is not set');
    publisher = createPublisher({
      db: connectionsDb(),
      client: createManagementClient(config.wsManagementEndpoint, undefined, { inProcess: true }),
      inProcessEndpoint: config.wsManagementEndpoint,
    });
  }
  return publisher;
};
