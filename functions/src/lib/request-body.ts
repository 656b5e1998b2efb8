import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** A request's body as text, as sent (API Gateway hands a binary body over in base64). */
export const bodyText = (
  event: Pick<APIGatewayProxyEventV2, 'body' | 'isBase64Encoded'>,
): string | undefined =>
  event.isBase64Encoded && event.body ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
