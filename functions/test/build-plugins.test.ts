import { functionPlan, routes } from '@curbside/api';
import { describe, expect, it } from 'vitest';
import { areaRouteTableSource, areaTables } from '../src/build/area-routes';
import { markPure } from '../src/build/pure-schemas';

/**
 * The functions build's two transformations for cold starts (ADR 0019): the
 * route table of a function holds only its area's tables, and the top-level
 * constants of the domain and API packages are marked pure so a bundle keeps
 * the schemas its code reaches. Both must keep every route a function serves
 * and every side effect of a module.
 */

describe("a function's route table", () => {
  it("holds every route of the function's plan, and no table of another area", async () => {
    const tables = await areaTables();
    // Every route of the whole table is in exactly one area table.
    expect(tables.flatMap((table) => [...table.names]).sort()).toEqual(Object.keys(routes).sort());
    for (const plan of functionPlan()) {
      if (plan.kind !== 'http') continue;
      const source = areaRouteTableSource(
        tables,
        plan.routes.map((route) => route.name),
      );
      const imported = [...source.matchAll(/import \{ (\w+) \}/g)].map((match) => match[1]);
      const chosen = tables.filter((table) => imported.includes(table.exportName));
      const served = new Set(chosen.flatMap((table) => [...table.names]));
      for (const route of plan.routes) expect(served.has(route.name), `${plan.id}: ${route.name}`).toBe(true);
      for (const name of served)
        expect(routes[name as keyof typeof routes].area, `${plan.id}: ${name}`).toBe(plan.area);
    }
  });

  it('fails the build when a served route or one a handler names is in no table', async () => {
    const tables = await areaTables();
    const withoutLogin = tables.filter((table) => !table.names.has('login'));
    expect(() => areaRouteTableSource(withoutLogin, ['login'])).toThrow(
      'routes.login is in no route table of packages/api/src/routes',
    );
    // ssoCallback's handler also names routes.ssoLogin (it redirects there).
    const withoutSsoLogin = tables.map((table) => ({
      ...table,
      names: new Set([...table.names].filter((name) => name !== 'ssoLogin')),
    }));
    expect(() => areaRouteTableSource(withoutSsoLogin, ['ssoCallback'])).toThrow(
      'routes.ssoLogin is in no route table of packages/api/src/routes',
    );
    expect(areaRouteTableSource(withoutLogin, ['lookupParentInvite'])).toContain(
      "import { inviteAuthRoutes } from './invites';",
    );
  });
});

describe('marking top-level constants pure', () => {
  it("marks each call of a top-level const's value, nested ones included", () => {
    const source = [
      "export const nameSchema = z.string().trim().min(1, 'Name is required');",
      'const rowSchema = z.object({ name: requiredText(`Name`, 50), ids: z.array(id()).max(5) });',
    ].join('\n');
    expect(markPure(source)).toBe(
      [
        "export const nameSchema = /* @__PURE__ */ z.string().trim().min(1, 'Name is required');",
        'const rowSchema = /* @__PURE__ */ z.object({ name: /* @__PURE__ */ requiredText(`Name`, 50), ids: /* @__PURE__ */ z.array(/* @__PURE__ */ id()).max(5) });',
      ].join('\n'),
    );
  });

  it('leaves alone what runs later or for its effect: function bodies, callbacks, let, statements', () => {
    const source = [
      'export const normalize = (text: string) => text.trim().toLowerCase();',
      'export const grade = z.string().refine((value) => normalizeGrade(value) !== null);',
      'let collator: Intl.Collator | undefined;',
      'registerSomething();',
      'export function make() { const inner = build(); return inner; }',
    ].join('\n');
    expect(markPure(source)).toBe(
      [
        'export const normalize = (text: string) => text.trim().toLowerCase();',
        'export const grade = /* @__PURE__ */ z.string().refine((value) => normalizeGrade(value) !== null);',
        'let collator: Intl.Collator | undefined;',
        'registerSomething();',
        'export function make() { const inner = build(); return inner; }',
      ].join('\n'),
    );
  });
});
