/**
 * The visitor's address as CloudFront saw it. Behind CloudFront the HTTP
 * API's `sourceIp` is the edge server's, shared by everyone it serves; a
 * viewer-request function on `/api/*` sets this header from `event.viewer.ip`,
 * replacing whatever the browser sent, so per-address throttles count the
 * visitor. Handlers trust it only where the stack says they sit behind it.
 */
export const VIEWER_ADDRESS_HEADER = 'x-curbside-viewer-address';

/**
 * The secret CloudFront adds to every request it forwards to an API (an
 * origin custom header, its value in Secrets Manager, rotated). Handlers
 * refuse a request without it: it went around CloudFront, and its viewer
 * address header could be anything.
 */
export const ORIGIN_SECRET_HEADER = 'x-curbside-origin-verify';

/**
 * A request's reference: the web client sends one with every call
 * (`X-Request-Id`), the answer carries it back, every log line of the request
 * names it (`request_id`) and an error toast shows it ("Reference: …"), so a
 * school can quote it and IT find the request in the logs. A request without
 * one (or with anything else than this shape) gets API Gateway's request id.
 */
export const REQUEST_ID_HEADER = 'x-request-id';
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9-]{5,63}$/;
