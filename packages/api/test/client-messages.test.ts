import { describe, expect, it } from 'vitest';
import { channels, channelsOnConnect, MAX_SUBSCRIBED_CLASSROOMS, parseClientMessage } from '../src';

const parse = (message: unknown) => parseClientMessage(JSON.stringify(message));

describe('a client message', () => {
  it('is named by its action or its type and checked by its schema', () => {
    expect(parse({ type: 'ping' })).toEqual({ ok: true, name: 'ping', message: { type: 'ping' } });
    expect(parse({ action: 'subscribe', classroomIds: [3, 4], order: 2 })).toEqual({
      ok: true,
      name: 'subscribe',
      message: { action: 'subscribe', classroomIds: [3, 4], order: 2 },
    });
    const position = { latitude: 40.1, longitude: -75.2, timestamp: 1 };
    expect(parse({ type: 'BUS_LOCATION_UPDATE', data: { busId: ' B3 ', location: position } })).toEqual({
      ok: true,
      name: 'BUS_LOCATION_UPDATE',
      message: { type: 'BUS_LOCATION_UPDATE', data: { busId: 'B3', location: position } },
    });
  });

  it.each([
    ['not JSON', 'this is {not json', undefined, 'A message must be JSON'],
    ['JSON but no message', '42', undefined, 'Unknown message'],
    ['an unknown type', '{"type":"SHOUT"}', undefined, 'Unknown message'],
    ['a name from the prototype', '{"type":"toString"}', undefined, 'Unknown message'],
    [
      'a subscribe without its list',
      '{"action":"subscribe"}',
      'subscribe',
      'classroomIds must be a list of classroom ids',
    ],
    [
      'fractions',
      '{"action":"subscribe","classroomIds":[1.5]}',
      'subscribe',
      'classroomIds must be a list of classroom ids',
    ],
    [
      'an order below 0',
      '{"action":"unsubscribe","order":-1}',
      'unsubscribe',
      'order must be a whole number of at least 0',
    ],
    [
      'a position off the globe',
      '{"type":"BUS_LOCATION_UPDATE","data":{"busId":"B3","location":{"latitude":91,"longitude":0,"timestamp":1}}}',
      'BUS_LOCATION_UPDATE',
      'Invalid latitude',
    ],
    ['a heartbeat without its bus', '{"type":"heartbeat"}', 'heartbeat', 'Invalid bus'],
  ])('%s is refused, saying what is wrong', (_, text, name, error) => {
    expect(parseClientMessage(text)).toEqual({ ok: false, name, error });
  });

  it(`names at most ${MAX_SUBSCRIBED_CLASSROOMS} classrooms`, () => {
    const ids = Array.from({ length: MAX_SUBSCRIBED_CLASSROOMS + 1 }, (_, i) => i + 1);
    expect(parse({ action: 'subscribe', classroomIds: ids })).toMatchObject({
      ok: false,
      error: `At most ${MAX_SUBSCRIBED_CLASSROOMS} classrooms can be followed at once`,
    });
    expect(parse({ action: 'subscribe', classroomIds: ids.slice(1) })).toMatchObject({ ok: true });
  });
});

describe('a channel name', () => {
  it('reads back as the channel it was made for', () => {
    expect(channels.parse(channels.public())).toEqual({ kind: 'public' });
    expect(channels.parse(channels.parent(12))).toEqual({ kind: 'parent', parentId: 12 });
    expect(channels.parse(channels.classroom(3, 41))).toEqual({
      kind: 'classroom',
      schoolId: 3,
      classroomId: 41,
    });
    for (const kind of ['staff', 'buses', 'busLinks', 'drivers', 'display', 'line', 'narrowed'] as const) {
      expect(channels.parse(channels[kind](7))).toEqual({ kind, schoolId: 7 });
    }
  });

  it('that no channel has reads as nothing', () => {
    for (const name of [
      '',
      'school#7',
      'school#7#teachers',
      'school#x#staff',
      'parent#',
      'school#7#classroom#',
    ]) {
      expect(channels.parse(name)).toBeUndefined();
    }
  });
});

describe('the channels a connection joins', () => {
  const staff = { id: 5, role: 'teacher' as const, schoolId: 2 };
  const parent = { id: 9, role: 'parent' as const, schoolId: null };

  it('are the public channel alone for a page not signed in', () => {
    expect(channelsOnConnect({ kind: 'page', user: null, buses: false })).toEqual(['public']);
    expect(channelsOnConnect({ kind: 'page', user: null, buses: true })).toEqual(['public']);
  });

  it('give staff their school and its whole line, or its buses on the map connection', () => {
    expect(channelsOnConnect({ kind: 'page', user: staff, buses: false })).toEqual([
      'public',
      channels.staff(2),
      channels.line(2),
    ]);
    expect(channelsOnConnect({ kind: 'page', user: staff, buses: true })).toEqual([
      'public',
      channels.buses(2),
    ]);
  });

  it('give a parent their own channel and no school’s', () => {
    expect(channelsOnConnect({ kind: 'page', user: parent, buses: false })).toEqual([
      'public',
      channels.parent(9),
    ]);
    expect(channelsOnConnect({ kind: 'page', user: parent, buses: true })).toEqual(['public']);
  });

  it('give a link its school’s channel for that link only', () => {
    expect(channelsOnConnect({ kind: 'display', schoolId: 4 })).toEqual(['public', channels.display(4)]);
    expect(channelsOnConnect({ kind: 'busLink', schoolId: 4, link: 'map' })).toEqual([
      'public',
      channels.busLinks(4),
      channels.buses(4),
    ]);
    expect(channelsOnConnect({ kind: 'busLink', schoolId: 4, link: 'driver' })).toEqual([
      'public',
      channels.busLinks(4),
      channels.drivers(4),
    ]);
  });
});
