import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { quietSdkLogger } from '@curbside/store';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { config } from './config';
import { inProcessMailFor, type ManagementTransport } from './in-process';

/** One email: a plain-text body and its HTML twin. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

let client: { endpoint: string | undefined; ses: SESv2Client } | undefined;

/**
 * The SES v2 client: in AWS it calls SES in the function's region; on a
 * laptop (`SES_ENDPOINT` set) it sends through the transport the runtime
 * registered for that endpoint (the same request, signed and serialised as
 * in AWS, with an in-process call as the last hop), over HTTP otherwise.
 */
const ses = (): SESv2Client => {
  const endpoint = config.sesEndpoint;
  if (!client || client.endpoint !== endpoint) {
    if (!endpoint) {
      client = { endpoint, ses: new SESv2Client({ logger: quietSdkLogger }) };
    } else {
      const overHttp = new NodeHttpHandler();
      const viaProcess = {
        handle: (request: Parameters<ManagementTransport['handle']>[0], options?: unknown) => {
          const transport = inProcessMailFor(endpoint);
          return transport
            ? transport.handle(request)
            : overHttp.handle(request as Parameters<NodeHttpHandler['handle']>[0], options as never);
        },
        updateHttpClientConfig: overHttp.updateHttpClientConfig.bind(overHttp),
        httpHandlerConfigs: overHttp.httpHandlerConfigs.bind(overHttp),
        destroy: () => overHttp.destroy(),
      };
      client = {
        endpoint,
        ses: new SESv2Client({
          endpoint,
          region: config.region,
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
          requestHandler: viaProcess as unknown as NodeHttpHandler,
          logger: quietSdkLogger,
        }),
      };
    }
  }
  return client.ses;
};

/** The process's SES client (created once; a test may stand in for its `send`). */
export const sesClient = (): SESv2Client => ses();

/**
 * SES refused for its sending rate (`TooManyRequestsException`, HTTP 429;
 * `Throttling` in older answers): the message was not sent and may be sent later.
 */
export const isThrottling = (error: unknown): boolean => {
  const { name, $metadata } = (error ?? {}) as { name?: string; $metadata?: { httpStatusCode?: number } };
  return (
    name === 'TooManyRequestsException' ||
    name === 'Throttling' ||
    name === 'ThrottlingException' ||
    $metadata?.httpStatusCode === 429
  );
};

/** Sends one email from the configured sender (`MAIL_FROM`); answers SES's message id. */
export const sendMail = async (mail: Mail): Promise<string | undefined> => {
  if (!config.mailFrom) throw new Error('Environment variable MAIL_FROM is not set');
  const answer = await ses().send(
    new SendEmailCommand({
      FromEmailAddress: config.mailFrom,
      Destination: { ToAddresses: [mail.to] },
      Content: {
        Simple: {
          Subject: { Data: mail.subject, Charset: 'UTF-8' },
          Body: { Text: { Data: mail.text, Charset: 'UTF-8' }, Html: { Data: mail.html, Charset: 'UTF-8' } },
        },
      },
    }),
  );
  return answer.MessageId;
};
