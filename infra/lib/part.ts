import { createHash } from 'node:crypto';
import type { CfnElement, Stack } from 'aws-cdk-lib';
import { Construct } from 'constructs';

/**
 * A part of the stack (its tables, its functions, an API, the schedules…): a construct that
 * groups resources in the construct tree and in the code, but not in their logical IDs. A
 * resource of a part keeps the logical ID it had when the stack built it itself (`Table…`,
 * not `TablesTable…`), so moving code into a part never makes CloudFormation replace a table,
 * a secret, a bucket or a log group. The stack opts in by answering `allocateLogicalId` with
 * {@link partlessLogicalId}; `infra/test/logical-ids.test.ts` pins the IDs.
 */
export class StackPart extends Construct {}

/**
 * The logical ID CDK gives an element whose path below its stack is `components`
 * (`makeUniqueId` of aws-cdk-lib, which it does not export): one component is the ID itself;
 * more are their words (without "Default", "Resource" and repeats) and a hash of the path.
 */
const uniqueId = (path: readonly string[]): string => {
  const components = path.filter((component) => component !== 'Default');
  const words = (component: string) => component.replace(/[^A-Za-z0-9]/g, '');
  if (components.length === 1 && words(components[0] as string).length <= 255) {
    return words(components[0] as string);
  }
  const hash = createHash('md5').update(components.join('/')).digest('hex').slice(0, 8).toUpperCase();
  const human: string[] = [];
  for (const component of components) {
    if (human.length === 0 || !(human[human.length - 1] as string).endsWith(component)) human.push(component);
  }
  return (
    human
      .filter((component) => component !== 'Resource')
      .map(words)
      .join('')
      .slice(0, 240) + hash
  );
};

/**
 * The logical ID of an element of `stack` as if no {@link StackPart} stood on its path;
 * `undefined` where none does (CDK's own allocation applies).
 */
export const partlessLogicalId = (stack: Stack, element: CfnElement): string | undefined => {
  const scopes = element.node.scopes;
  const below = scopes.slice(scopes.indexOf(stack) + 1);
  if (!below.some((scope) => scope instanceof StackPart)) return undefined;
  return uniqueId(below.filter((scope) => !(scope instanceof StackPart)).map((scope) => scope.node.id));
};
