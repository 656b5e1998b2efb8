import { type Plugin, parseAst } from 'vite';

type Node = { type: string; start: number; end: number; [key: string]: unknown };

/** Modules of our packages whose top level only declares (`"sideEffects": false`): rules, schemas, the route table. */
const DECLARING = /[\\/]packages[\\/](domain|api)[\\/]src[\\/][^?]*\.ts$/;

/** Initializers that are values already (nothing runs to make them). */
const PLAIN = new Set([
  'Literal',
  'Identifier',
  'ArrowFunctionExpression',
  'FunctionExpression',
  'ClassExpression',
]);

const declarationsOf = (statement: Node): Node[] => {
  const declaration =
    statement.type === 'ExportNamedDeclaration' ? (statement.declaration as Node | null) : statement;
  if (declaration?.type !== 'VariableDeclaration') return [];
  return declaration.declarations as Node[];
};

/**
 * `packages/domain` and `packages/api` declare `"sideEffects": false`: their modules' top levels
 * only declare. But a declaration made by a call (`export const loginSchema = z.object({…})`) is
 * kept by the bundler whether or not anything uses it, since a call might do something: a screen
 * that uses one constant of a module carried every zod schema of it, and zod with them (the parent
 * dashboard, for `SCHOOL_TIME_ZONE`: 24 KB gzip). In the web build, each such initializer becomes
 * an immediately called function marked pure, so one nobody uses is dropped, and zod with the
 * last of them. Order and values are unchanged: the function runs where the initializer did.
 */
export const pureDeclarations = (): Plugin => ({
  name: 'curbside-pure-declarations',
  apply: 'build',
  // After TypeScript is stripped: the source is JavaScript, positions are its own.
  enforce: 'post',
  transform(code, id) {
    if (!DECLARING.test(id)) return null;
    const program = parseAst(code) as unknown as { body: Node[] };
    const edits: Node[] = [];
    for (const statement of program.body) {
      for (const declarator of declarationsOf(statement)) {
        const init = declarator.init as Node | null;
        if (init && !PLAIN.has(init.type)) edits.push(init);
      }
    }
    if (edits.length === 0) return null;
    let out = code;
    for (const init of edits.sort((a, b) => b.start - a.start)) {
      out = `${out.slice(0, init.start)}/* @__PURE__ */ (() => (${out.slice(init.start, init.end)}))()${out.slice(init.end)}`;
    }
    return { code: out, map: null };
  },
});
