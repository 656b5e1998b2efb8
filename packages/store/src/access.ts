import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * IAM on a laptop. In AWS each function's role allows only the DynamoDB
 * actions its routes use (see `packages/api/src/functions.ts`); the laptop
 * runtime runs every invocation inside `access.run(grant, …)` with that same
 * grant, and every client of `createDb` refuses a call the grant does not
 * allow, as AWS would (`AccessDeniedException`). So a route that needs a new
 * action fails its tests here, not in production. Outside an invocation (the
 * seed, a script, a test's own calls) nothing is checked.
 */

/** DynamoDB actions as IAM names them. */
export type TableAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'BatchWriteItem'
  | 'ConditionCheckItem';

export interface Grant {
  /** The function, for the error message (`http-auth`). */
  name: string;
  /** Table name → the actions allowed on it (Query covers the table's indexes). */
  tables: Readonly<Record<string, readonly TableAction[]>>;
  /** May call the WebSocket management API (`execute-api:ManageConnections`). */
  manageConnections: boolean;
  /** May send email through SES (`ses:SendEmail`). */
  sendsEmail?: boolean;
}

/** On the process, not in this module: the built bundles' copies of the store check the same grant (issue 55). */
const GRANT = Symbol.for('curbside.grant');
const shared = globalThis as { [GRANT]?: AsyncLocalStorage<Grant> };
shared[GRANT] ??= new AsyncLocalStorage<Grant>();
const current = shared[GRANT];

type Item = Record<string, unknown>;
interface Input {
  TableName?: string;
  RequestItems?: Record<string, unknown>;
  TransactItems?: Array<{
    Put?: { TableName?: string };
    Update?: { TableName?: string };
    Delete?: { TableName?: string };
    ConditionCheck?: { TableName?: string };
    Get?: { TableName?: string };
  }>;
}

/**
 * The IAM actions an operation needs, per table: a transaction needs the
 * action of each of its items (there is no TransactWriteItems action); a
 * Scan needs `Scan`, which no function is ever granted.
 */
export const requiredActions = (operation: string, input: Input): Array<[table: string, action: string]> => {
  switch (operation) {
    case 'TransactWriteItems':
      return (input.TransactItems ?? []).flatMap((item): Array<[string, string]> => {
        if (item.Put) return [[item.Put.TableName ?? '', 'PutItem']];
        if (item.Update) return [[item.Update.TableName ?? '', 'UpdateItem']];
        if (item.Delete) return [[item.Delete.TableName ?? '', 'DeleteItem']];
        if (item.ConditionCheck) return [[item.ConditionCheck.TableName ?? '', 'ConditionCheckItem']];
        return [];
      });
    case 'TransactGetItems':
      return (input.TransactItems ?? []).map((item) => [item.Get?.TableName ?? '', 'GetItem']);
    case 'BatchWriteItem':
    case 'BatchGetItem':
      return Object.keys(input.RequestItems ?? {}).map((table) => [table, operation]);
    default:
      return [[input.TableName ?? '', operation]];
  }
};

/** What AWS answers a call the role does not allow. */
export class AccessDeniedException extends Error {
  override name = 'AccessDeniedException';
}

export const access = {
  /** Runs `fn` (an invocation) with the function's grant. */
  run<T>(grant: Grant, fn: () => T): T {
    return current.run(grant, fn);
  },

  /** The grant of the running invocation, if any. */
  current(): Grant | undefined {
    return current.getStore();
  },

  /** Throws as AWS would when the running invocation may not make this call. */
  check(operation: string, input: Item): void {
    const grant = current.getStore();
    if (!grant) return;
    for (const [table, action] of requiredActions(operation, input as Input)) {
      if (!grant.tables[table]?.includes(action as TableAction)) {
        throw new AccessDeniedException(
          `${grant.name} is not authorized to perform dynamodb:${action} on table ${table}: ` +
            'grant it in packages/api/src/functions.ts if its routes need it',
        );
      }
    }
  },
};
