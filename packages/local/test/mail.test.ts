import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sendMail } from '@curbside/functions/lib/mail';
import { access } from '@curbside/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopback, type RunningServer, startServer } from '../src/gateway';
import { grantOf } from '../src/lambda';
import { sesTransport } from '../src/mail';

/**
 * Amazon SES on a laptop: the functions' SES v2 client (`sendMail`, the same
 * code as in AWS) sends to the runtime's emulated SendEmail, which keeps each
 * message as a file and lists them at /dev/mail; IAM as in AWS.
 */
let server: RunningServer;
let mailDir: string;
beforeAll(async () => {
  mailDir = mkdtempSync(join(tmpdir(), 'curbside-mail-'));
  server = await startServer({
    port: 0,
    tableName: process.env.TABLE_NAME as string,
    dynamoEndpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB as string,
    mailDir,
  });
});
afterAll(async () => {
  await server?.close();
  rmSync(mailDir, { recursive: true, force: true });
});

const message = {
  to: 'rosa@family.example',
  subject: 'Lincoln <Elementary>: follow Sofia D.',
  text: 'Open https://curbside.example/parent/invite?t=abc&x=1 to join.\n\nÁbralo.',
  html: '<p><a href="https://curbside.example/parent/invite?t=abc&amp;x=1">link</a></p>',
};

describe('the emulated SES', () => {
  it('reads the request body as bytes, never through the string methods the SDK says will throw', async () => {
    // The SDK's JSON body is a Uint8Array with string methods that warn, "In a future version
    // this will throw an error": here they throw.
    class StrictBody extends Uint8Array {
      override valueOf(): never {
        throw new Error('a string method was called on the request body');
      }
      override toString(): never {
        throw new Error('a string method was called on the request body');
      }
    }
    const json = JSON.stringify({
      FromEmailAddress: 'no-reply@curbside.example',
      Destination: { ToAddresses: [message.to] },
      Content: { Simple: { Subject: { Data: message.subject }, Body: { Text: { Data: message.text } } } },
    });
    const kept: string[] = [];
    const transport = sesTransport(async (mail) => {
      kept.push(mail.text);
      return 'kept';
    });
    const { response } = await transport.handle({
      method: 'POST',
      path: '/v2/email/outbound-emails',
      headers: { 'content-type': 'application/json' },
      body: new StrictBody(new TextEncoder().encode(json)),
    });
    expect(response.statusCode).toBe(200);
    expect(kept).toEqual([message.text]);
  });

  it('keeps what the sending function (the mail sender) sends, one JSON file under the mail folder', async () => {
    const id = await access.run(grantOf('jobs/mail'), () => sendMail(message));
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const files = readdirSync(mailDir);
    expect(files).toHaveLength(1);
    const stored = JSON.parse(readFileSync(join(mailDir, files[0] as string), 'utf8'));
    expect(stored).toMatchObject({
      id,
      to: ['rosa@family.example'],
      from: process.env.MAIL_FROM,
      subject: message.subject,
      text: message.text,
      html: message.html,
    });
    expect(server.mail.list().map((mail) => mail.id)).toEqual([id]);
  });

  it('refuses a function without ses:SendEmail, as IAM would, and keeps nothing', async () => {
    const before = server.mail.list().length;
    const refused = access.run(grantOf('http/lookupPickupCode'), () => sendMail(message));
    await expect(refused).rejects.toMatchObject({ name: 'AccessDeniedException' });
    expect(grantOf('http/lookupPickupCode').sendsEmail).toBe(false);
    // Nor the admin function that queues the emailed invites: only the mail sender sends them.
    await expect(
      access.run(grantOf('http/emailParentInvites'), () => sendMail(message)),
    ).rejects.toMatchObject({
      name: 'AccessDeniedException',
    });
    expect(server.mail.list().length).toBe(before);
  });

  it('answers a message without an address 400 (BadRequestException)', async () => {
    const refused = access.run(grantOf('jobs/mail'), () => sendMail({ ...message, to: '' }));
    await expect(refused).rejects.toMatchObject({ $metadata: { httpStatusCode: 400 } });
  });

  it('lists the messages at /dev/mail, links clickable and text escaped', async () => {
    const page = await fetch(`${server.url}/dev/mail`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('Lincoln &lt;Elementary&gt;: follow Sofia D.');
    expect(html).not.toContain('<Elementary>');
    expect(html).toContain('rosa@family.example');
    expect(html).toContain(
      '<a href="https://curbside.example/parent/invite?t=abc&amp;x=1">https://curbside.example/parent/invite?t=abc&amp;x=1</a>',
    );
  });

  it('has no HTTP route: nobody on the network can post a message', async () => {
    const before = server.mail.list().length;
    const posted = await fetch(`${server.url}/v2/email/outbound-emails`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        FromEmailAddress: 'x@example.com',
        Destination: { ToAddresses: ['y@example.com'] },
        Content: { Simple: { Subject: { Data: 'Hi' }, Body: { Text: { Data: 'Hi' } } } },
      }),
    });
    expect(posted.status).toBe(405);
    expect((await fetch(`${server.url}/dev/mail`, { method: 'POST' })).status).toBe(405);
    expect(server.mail.list().length).toBe(before);
  });
});

/** This machine's first address on a network (not loopback), if it has one. */
const networkAddress = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;

describe('/dev/mail with the server listening on every address (HOST=0.0.0.0, issue 49)', () => {
  let open: RunningServer;
  beforeAll(async () => {
    open = await startServer({
      port: 0,
      host: '0.0.0.0',
      tableName: process.env.TABLE_NAME as string,
      dynamoEndpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB as string,
      mailDir,
    });
  });
  afterAll(async () => {
    await open?.close();
  });
  const port = () => new URL(open.url).port;

  it('is shown to this machine', async () => {
    const page = await fetch(`http://127.0.0.1:${port()}/dev/mail`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('rosa@family.example');
  });

  it.skipIf(networkAddress === undefined)(
    'is not shown to a caller from the network: 404, no invite link in the answer',
    async () => {
      for (const method of ['GET', 'HEAD']) {
        const page = await fetch(`http://${networkAddress}:${port()}/dev/mail`, { method });
        expect(page.status, method).toBe(404);
        expect(await page.text()).not.toContain('parent/invite');
      }
    },
  );

  it('tells loopback callers from the others', () => {
    for (const address of ['127.0.0.1', '127.8.0.2', '::1', '::ffff:127.0.0.1'])
      expect(isLoopback(address), address).toBe(true);
    for (const address of [undefined, '192.0.2.2', '::ffff:192.0.2.2', 'fd00::2', '10.127.0.1', '::'])
      expect(isLoopback(address), String(address)).toBe(false);
  });
});
