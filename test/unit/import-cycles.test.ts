import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * No two modules import each other, directly or round a longer circle, and no two
 * feature folders of the web app (or service folders of the functions) do: a circle
 * means neither side can be understood, tested or moved alone.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const SOURCES = [
  'packages/domain/src',
  'packages/api/src',
  'packages/store/src',
  'packages/local/src',
  'functions/src',
  'web/src',
];

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });

const files = SOURCES.flatMap((dir) => filesUnder(join(root, dir)));
const known = new Set(files);
const resolveImport = (from: string, specifier: string): string | undefined => {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  return [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')].find((path) =>
    known.has(path),
  );
};
const graph = new Map(
  files.map((file) => {
    const source = readFileSync(file, 'utf8');
    const specifiers = [
      ...source.matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g),
    ];
    const targets = specifiers.flatMap(
      (match) => resolveImport(file, (match[1] ?? match[2]) as string) ?? [],
    );
    return [file, targets] as const;
  }),
);

/** Strongly connected components of more than one node (Tarjan). */
const circles = (edges: Map<string, readonly string[]>): string[][] => {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    for (const target of edges.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) as number, low.get(target) as number));
      } else if (stack.includes(target)) {
        low.set(node, Math.min(low.get(node) as number, index.get(target) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.map((path) => relative(root, path)).sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
};

/** `web/src/features/queue`, `functions/src/services/sis`, … (a file directly in src is its own folder). */
const folderOf = (file: string) => {
  const path = relative(root, file);
  const match = path.match(
    /^(web\/src\/features\/[^/]+|functions\/src\/services\/[^/]+(?=\/)|web\/src\/[^/]+(?=\/))/,
  );
  return match?.[1];
};

describe('imports', () => {
  it('form no circle between modules', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('form no circle between feature and service folders', () => {
    const folders = new Map<string, Set<string>>();
    for (const [file, targets] of graph) {
      const from = folderOf(file);
      if (!from) continue;
      for (const target of targets) {
        const to = folderOf(target);
        if (to && to !== from) folders.set(from, (folders.get(from) ?? new Set()).add(to));
      }
    }
    const edges = new Map([...folders].map(([from, to]) => [from, [...to]] as const));
    expect(circles(edges)).toEqual([]);
  });
});
