import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { STATEFUL_RESOURCES } from './stateful-resources';
import { synthesizeOnce } from './synth';

/** The types whose replacement loses data, a secret's value, logs or a key. */
const STATEFUL_TYPES = new Set(STATEFUL_RESOURCES.map(([, type]) => type));

// Every optional stateful resource switched on: Clever's secrets, the WebSocket stage's access logs.
const curbside = synthesizeOnce({
  context: {
    'curbside:cleverClientId': 'clever-app-123',
    'curbside:wsAccessLogs': 'true',
    'curbside:domainName': 'pickup.school.example',
    'curbside:certificateArn': 'arn:aws:acm:us-east-1:123456789012:certificate/abc',
  },
});

describe('logical IDs: a deploy never replaces what holds data', () => {
  it('every table, secret, bucket, queue, log group and key keeps the logical ID and type it had before the stack was split into constructs', () => {
    const stateful = Object.entries(curbside.resources)
      .filter(([, resource]) => STATEFUL_TYPES.has(resource.Type))
      .map(([logicalId, resource]) => [logicalId, resource.Type])
      .sort(([a], [b]) => (a as string).localeCompare(b as string));
    const expected = [...STATEFUL_RESOURCES].sort(([a], [b]) => a.localeCompare(b));
    expect(stateful).toEqual(expected);
  });

  it('the parts of the stack do not enter the logical IDs (the data table is still `Table…`, not `TablesTable…`)', () => {
    const parted =
      /^(TablesTable|Functions(http|ws|scheduled|import)|HttpHttp|WebSocketWebSocket|MailMail|Mailmail|CleverClever|Rotationrotate|SchedulesSchedule)/;
    expect(Object.keys(curbside.resources).filter((id) => parted.test(id))).toEqual([]);
    expect(
      curbside.stack.getLogicalId(curbside.stack.functions.get('ws')?.node.defaultChild as CfnFunction),
    ).toMatch(/^wsFunction[0-9A-F]{8}$/);
  });
});
