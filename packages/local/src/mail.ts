/**
 * Amazon SES on a laptop: the SES v2 `SendEmail` operation
 * (`POST /v2/email/outbound-emails`, its JSON request and answer), served
 * in-process to the handlers as the WebSocket management API is: the
 * functions' SES client (`sendMail` in functions) signs and serialises each
 * request exactly as in AWS, with a call into this module as the last hop.
 * There is no HTTP route to it, so nobody on the network can put a message
 * on the laptop's mail page. Each message is kept as a JSON file under
 * `.data/mail/` (in memory with `--in-memory` and in the tests), and
 * `/dev/mail` lists them: a laptop page, never deployed, shown to loopback callers only.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ManagementTransport } from '@curbside/functions/lib/in-process';
import { access } from '@curbside/store';

/** A message as the laptop keeps it. */
export interface StoredMail {
  id: string;
  /** When it was sent (ISO). */
  at: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

export type OutgoingMail = Omit<StoredMail, 'id' | 'at'>;

export interface Mailbox {
  /** Keeps a message; answers its id. */
  deliver(mail: OutgoingMail): StoredMail;
  /** Every kept message, newest first. */
  list(): StoredMail[];
}

/** A mailbox in `dir` (one JSON file per message), or in memory without one. */
export const createMailbox = ({ dir }: { dir?: string } = {}): Mailbox => {
  const memory: StoredMail[] = [];
  if (dir) mkdirSync(dir, { recursive: true, mode: 0o700 });
  return {
    deliver(mail) {
      const stored: StoredMail = { id: randomUUID(), at: new Date().toISOString(), ...mail };
      if (dir) {
        const name = `${stored.at.replace(/[:.]/g, '-')}-${stored.id}.json`;
        writeFileSync(join(dir, name), `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
      } else memory.push(stored);
      return stored;
    },
    list() {
      const all = dir
        ? readdirSync(dir)
            .filter((name) => name.endsWith('.json'))
            .flatMap((name) => {
              try {
                return [JSON.parse(readFileSync(join(dir, name), 'utf8')) as StoredMail];
              } catch {
                return [];
              }
            })
        : [...memory];
      return all.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
    },
  };
};

const SEND_EMAIL_PATH = '/v2/email/outbound-emails';

interface Answer {
  status: number;
  body: unknown;
  errorType?: string;
}

/** IAM on a laptop: only the function that sends mail holds ses:SendEmail. */
const refusal = (): Answer | undefined => {
  const grant = access.current();
  if (!grant || grant.sendsEmail) return undefined;
  return {
    status: 403,
    errorType: 'AccessDeniedException',
    body: { message: `${grant.name} is not authorized to perform ses:SendEmail` },
  };
};

const badRequest = (message: string): Answer => ({
  status: 400,
  errorType: 'BadRequestException',
  body: { message },
});

interface SendEmailRequest {
  FromEmailAddress?: string;
  Destination?: { ToAddresses?: string[]; CcAddresses?: string[]; BccAddresses?: string[] };
  Content?: {
    Simple?: {
      Subject?: { Data?: string };
      Body?: { Text?: { Data?: string }; Html?: { Data?: string } };
    };
  };
}

/** SES v2 SendEmail, as far as Curbside uses it: a simple message to addresses. */
const sendEmail = (raw: Uint8Array, deliver: (mail: OutgoingMail) => Promise<string>) => {
  let request: SendEmailRequest;
  try {
    // Decoded as bytes: the SDK's JSON body is a Uint8Array with string methods, which it warns
    // of (and says will throw) when called; `Buffer.from` calls its `valueOf`.
    request = JSON.parse(new TextDecoder().decode(raw)) as SendEmailRequest;
  } catch {
    return Promise.resolve(badRequest('The request body is not JSON'));
  }
  const to = [
    ...(request.Destination?.ToAddresses ?? []),
    ...(request.Destination?.CcAddresses ?? []),
    ...(request.Destination?.BccAddresses ?? []),
  ];
  const simple = request.Content?.Simple;
  if (!request.FromEmailAddress) return Promise.resolve(badRequest('FromEmailAddress is required'));
  if (to.length === 0) return Promise.resolve(badRequest('Destination needs at least one address'));
  // SES refuses an address without a local part and a domain (`Missing final '@domain'`).
  const bad = to.find((address) => !/^(?:[^<>]*<)?[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+>?$/.test(address.trim()));
  if (bad !== undefined) return Promise.resolve(badRequest(`Illegal address: ${JSON.stringify(bad)}`));
  if (!simple?.Subject?.Data || !(simple.Body?.Text?.Data || simple.Body?.Html?.Data))
    return Promise.resolve(badRequest('Content.Simple needs a subject and a body'));
  return deliver({
    from: request.FromEmailAddress,
    to,
    subject: simple.Subject.Data,
    text: simple.Body?.Text?.Data ?? '',
    html: simple.Body?.Html?.Data ?? '',
  }).then((id): Answer => ({ status: 200, body: { MessageId: id } }));
};

const bytesOf = (body: unknown): Uint8Array =>
  body instanceof Uint8Array ? body : typeof body === 'string' ? Buffer.from(body) : new Uint8Array(0);

/**
 * The SES v2 endpoint as an SDK request handler: `SendEmail` is kept by
 * `deliver` (the mailbox on the main thread; a worker asks the main thread),
 * anything else is answered 404 as an unknown operation.
 */
export const sesTransport = (deliver: (mail: OutgoingMail) => Promise<string>): ManagementTransport => ({
  async handle(request) {
    const path = request.path.replace(/\/+$/, '');
    const out: Answer =
      request.method !== 'POST' || !path.endsWith(SEND_EMAIL_PATH)
        ? { status: 404, errorType: 'NotFoundException', body: { message: 'Unknown operation' } }
        : (refusal() ?? (await sendEmail(bytesOf(request.body), deliver)));
    return {
      response: {
        statusCode: out.status,
        headers: {
          'content-type': 'application/json',
          'x-amzn-requestid': randomUUID(),
          ...(out.errorType ? { 'x-amzn-errortype': out.errorType } : {}),
        },
        body: Buffer.from(JSON.stringify(out.body)),
      },
    };
  },
});

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** A message's text with its web addresses made links (everything else escaped). */
const linked = (text: string) =>
  text
    .split(/(https?:\/\/[^\s<>"']+)/)
    .map((part, i) =>
      i % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part),
    )
    .join('');

/** `/dev/mail`: the messages the laptop "sent", newest first, with their links clickable. */
export const mailPage = (messages: readonly StoredMail[]): string => {
  const items = messages
    .map(
      (mail) => `<article aria-labelledby="m-${mail.id}">
<h2 id="m-${mail.id}">${escapeHtml(mail.subject)}</h2>
<dl><dt>To</dt><dd>${escapeHtml(mail.to.join(', '))}</dd><dt>From</dt><dd>${escapeHtml(mail.from)}</dd><dt>Sent</dt><dd><time datetime="${escapeHtml(mail.at)}">${escapeHtml(mail.at.replace('T', ' ').slice(0, 19))} UTC</time></dd></dl>
<pre>${linked(mail.text || mail.html.replace(/<[^>]*>/g, ' '))}</pre>
</article>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Laptop mail · Curbside</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:48rem;padding:1rem;color:#1a1a1a;background:#fff}
article{border:1px solid #ccc;border-radius:8px;padding:1rem;margin:1rem 0}
h2{font-size:1.1rem;margin:0 0 .5rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:0 .75rem;margin:0 0 .5rem}dt{font-weight:600}dd{margin:0}
pre{white-space:pre-wrap;word-break:break-word;font:inherit;margin:0}
a{color:#0b57d0}
</style></head>
<body><main><h1>Laptop mail</h1>
<p>Email the laptop runtime would have sent through Amazon SES (kept under <code>.data/mail/</code>). This page exists on the laptop only.</p>
${messages.length === 0 ? '<p>No messages yet.</p>' : items}
</main></body></html>
`;
};
