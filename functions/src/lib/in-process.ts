/**
 * The registry of in-process management transports. Kept free of imports (no
 * configuration is read here), so the laptop runtime can load it before the
 * handlers' environment exists.
 */

/**
 * What the SDK client needs of a request handler (structurally, the SDK's
 * HttpHandler): the laptop runtime provides one that answers in-process.
 */
export interface ManagementTransport {
  handle(request: {
    method: string;
    path: string;
    headers: Record<string, string>;
    body?: unknown;
  }): Promise<{ response: { statusCode: number; headers: Record<string, string>; body: Uint8Array } }>;
  /**
   * A post to one connection without the SDK's request (its serialisation and
   * signing cost about 0.15 ms of CPU per message, which on a laptop every
   * handler pays on one thread, where in AWS each invocation has its own):
   * the status the management API answers, and its error type when refused.
   */
  post?(connectionId: string, data: Uint8Array): Promise<{ status: number; errorType?: string }>;
}

/**
 * The registries live on the process, not in this module: the laptop runtime
 * may run the built bundles (`CURBSIDE_FUNCTIONS=dist`), each with its own copy
 * of this module, and their handlers must find what the runtime registered.
 */
const registry = (name: string): Map<string, ManagementTransport> => {
  const key = Symbol.for(`curbside.inProcess.${name}`);
  const process_ = globalThis as { [key]?: Map<string, ManagementTransport> };
  process_[key] ??= new Map();
  return process_[key];
};

const inProcess = registry('management');

/**
 * The laptop runtime serves the management API in the same process as the
 * handlers: it registers a transport for its endpoint, and the handlers'
 * publisher (`live()`) posts through it instead of over HTTP. In AWS nothing
 * is registered. Answers a function that removes the registration.
 */
export const registerInProcessManagement = (endpoint: string, transport: ManagementTransport) => {
  inProcess.set(endpoint, transport);
  return () => {
    if (inProcess.get(endpoint) === transport) inProcess.delete(endpoint);
  };
};

/** The transport registered for `endpoint`, if any. */
export const inProcessTransportFor = (endpoint: string): ManagementTransport | undefined =>
  inProcess.get(endpoint);

/**
 * The mail (Amazon SES v2) endpoint of the laptop runtime, served in-process
 * as the management API is: the handlers' SES client sends through the
 * transport registered for its endpoint (`SES_ENDPOINT`); in AWS nothing is
 * registered and the client calls SES.
 */
const inProcessMail = registry('mail');

export const registerInProcessMail = (endpoint: string, transport: ManagementTransport) => {
  inProcessMail.set(endpoint, transport);
  return () => {
    if (inProcessMail.get(endpoint) === transport) inProcessMail.delete(endpoint);
  };
};

/** The mail transport registered for `endpoint`, if any. */
export const inProcessMailFor = (endpoint: string): ManagementTransport | undefined =>
  inProcessMail.get(endpoint);
