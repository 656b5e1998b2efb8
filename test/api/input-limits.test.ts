import { fillPath, type RouteDefinition, routeList as table } from '@curbside/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Answer, Client, signedIn, startTestServer } from '../support/server';

/**
 * Walks the route table: every field of every request schema (path, query
 * and JSON body) gets an oversized value, a value of the wrong type and, when
 * required, no value; each answers 400 naming the field, never 500. Every
 * string field declares a maximum length.
 */
interface FieldSchema {
  type?: string;
  anyOf?: FieldSchema[];
  maxLength?: number;
  enum?: unknown[];
  const?: unknown;
}
interface ObjectSchema {
  properties?: Record<string, FieldSchema>;
  required?: string[];
}
type Part = 'params' | 'query' | 'body';
const routeList: readonly RouteDefinition[] = table;

const jsonSchemaOf = (schema: z.ZodType): ObjectSchema =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as ObjectSchema;
const typesOf = (field: FieldSchema): string[] =>
  field.anyOf ? field.anyOf.flatMap(typesOf) : field.type ? [field.type] : [];
const maxLengthOf = (field: FieldSchema): number | undefined =>
  field.maxLength ?? field.anyOf?.map(maxLengthOf).find((max) => max !== undefined);

/** A value the part's schema accepts for each of its fields, so only the field under test is wrong. */
const validSample = (part: Part, route: RouteDefinition): Record<string, string | number> =>
  part === 'params'
    ? Object.fromEntries(
        [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [
          name,
          name === 'code' ? 'AAAA' : name === 'kind' ? 'students' : 1,
        ]),
      )
    : part === 'query'
      ? { sessionId: 1 }
      : {};

/** Who calls a route so that the request gets past authorization to validation. */
const callerOf = (route: RouteDefinition): string | null =>
  route.access === 'public' ? null : route.access === 'parent' ? 'parent_demo' : 'super_demo';

interface Case {
  route: RouteDefinition;
  part: Part;
  field: string;
  kind: 'oversized' | 'wrong type' | 'missing';
  value: unknown;
}

/** In a URL a value is text: oversized stays within Node's 16 KB header limit. */
const URL_OVERSIZED = 'x'.repeat(2_000);
const BODY_OVERSIZED = 'x'.repeat(500_000);

const cases: Case[] = [];
for (const route of routeList) {
  for (const part of ['params', 'query', 'body'] as const) {
    const schema = route.request[part];
    if (!schema || (part === 'body' && (route.contentType ?? 'application/json') !== 'application/json'))
      continue;
    const { properties = {}, required = [] } = jsonSchemaOf(schema);
    for (const [field, fieldSchema] of Object.entries(properties)) {
      const types = typesOf(fieldSchema);
      const inUrl = part !== 'body';
      if (types.includes('string')) {
        cases.push({ route, part, field, kind: 'oversized', value: inUrl ? URL_OVERSIZED : BODY_OVERSIZED });
        if (!inUrl) cases.push({ route, part, field, kind: 'wrong type', value: { text: 'not text' } });
      } else {
        // Numbers, enums and constants: a word where they expect something else.
        cases.push({
          route,
          part,
          field,
          kind: 'wrong type',
          value: inUrl ? 'not-a-number' : 'not-one-of-these',
        });
        if (!inUrl) cases.push({ route, part, field, kind: 'wrong type', value: { nested: true } });
      }
      if (required.includes(field) && part !== 'params') {
        cases.push({ route, part, field, kind: 'missing', value: undefined });
      }
    }
  }
}

let server: Awaited<ReturnType<typeof startTestServer>>;
const clients = new Map<string | null, Client>();
beforeAll(async () => {
  server = await startTestServer();
  clients.set(null, new Client(server.url));
  clients.set('parent_demo', await signedIn(server.url, 'parent_demo'));
  clients.set('super_demo', await signedIn(server.url, 'super_demo'));
});
afterAll(async () => {
  await server?.close();
});

const send = (testCase: Case): Promise<Answer> => {
  const { route, part, field, value } = testCase;
  const params = {
    ...validSample('params', route),
    ...(part === 'params' ? { [field]: value as string } : {}),
  };
  const query = new URLSearchParams(
    Object.entries({ ...validSample('query', route), ...(part === 'query' ? { [field]: value } : {}) })
      .filter(([, v]) => v !== undefined)
      .map(([k, v]): [string, string] => [k, String(v)]),
  );
  const path = `${fillPath(route.path, params)}${route.request.query ? `?${query}` : ''}`;
  // A route that takes another type than JSON (a CSV file) is sent no body when the case is not about it.
  const body =
    part === 'body' ? { [field]: value } : route.method === 'GET' || route.contentType ? undefined : {};
  return (clients.get(callerOf(route)) as Client).request(route.method, path, body);
};

describe('every string field of every request schema', () => {
  const stringFields = routeList.flatMap((route) =>
    (['params', 'query', 'body'] as const).flatMap((part) => {
      const schema = route.request[part];
      if (!schema) return [];
      return Object.entries(jsonSchemaOf(schema).properties ?? {})
        .filter(([, field]) => typesOf(field).includes('string') && !field.enum && field.const === undefined)
        .map(([name, field]) => [`${route.name} ${part}.${name}`, maxLengthOf(field)] as const);
    }),
  );

  it.each(stringFields)('%s has a maximum length', (_, max) => {
    expect(max).toBeGreaterThan(0);
  });
});

describe.each(
  cases.map((c) => [`${c.route.method} ${c.route.path} ${c.part}.${c.field}: ${c.kind}`, c] as const),
)('%s', (_, testCase) => {
  it('answers 400 with a message for that field', async () => {
    const answer = await send(testCase);
    expect(answer.status).toBe(400);
    const issue = (answer.body.issues ?? []).find((i: { path: string }) => i.path === testCase.field);
    expect(issue, JSON.stringify(answer.body).slice(0, 300)).toBeDefined();
    expect(issue.message).toMatch(/\w/);
  });
});
