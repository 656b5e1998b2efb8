import { AsyncLocalStorage } from 'node:async_hooks';
import { cancellationReasons } from './condition';
import { itemSize, meter } from './meter';

/**
 * An Idempotency-Key claimed inside the change's own transaction (issue 54):
 * the claim the table handle (db.ts) adds to a request's first
 * TransactWriteItems. Apart from `idempotency.ts` so the table handle needs
 * nothing that needs the table handle.
 */
/** How long a key's record is kept: a retry within 24 hours gets the first answer. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** The record of a caller's key. */
export const idempotencyKeyOf = (caller: string, key: string) => ({
  pk: `IDEMPOTENCY#${caller}#${key}`,
  sk: 'IDEMPOTENCY',
});

/** A key claimed by a change's transaction, its answer not kept yet. */
export const APPLIED = 'applied';

/**
 * A key to be claimed by the first transaction the running request writes
 * (its change), rather than by a write of its own: `pending` until a
 * transaction carries it, `committed` once one did, `taken` when the key was
 * already there (a retry, or another body), `refused` when the change answered
 * a refusal decided by a transaction that found the key free (`refusedByTheChange`).
 */
export interface TransactionClaim {
  readonly table: string;
  readonly caller: string;
  readonly key: string;
  readonly fingerprint: string;
  state: 'pending' | 'committed' | 'taken' | 'refused';
  /**
   * The request's last transaction was refused by a condition of the change's
   * own while its claim's held: no attempt with this key had committed then.
   */
  freeAtRefusal?: boolean;
  /**
   * The request's answer, kept by the claim itself (`idempotency.answerInTheClaim`,
   * set before the transaction): its record's attributes in place of `applied`'s,
   * so no write after the change keeps it.
   */
  answered?: Record<string, unknown>;
}

/**
 * Takes back the answer the running request put in its pending claim
 * (`idempotency.answerInTheClaim`): the next transaction claims the key as
 * `applied`, and the answer is kept after it. For a change whose answer is
 * known only if its first try commits (add-to-batch's batch as held).
 */
export const forgetAnswerInTheClaim = (): void => {
  const claim = transactionClaims.getStore();
  if (claim?.state === 'pending') delete claim.answered;
};

/**
 * The running request answers a refusal (a 409) that its last transaction
 * decided, with nothing read after it (ADR 0027, h54j): add-to-batch's line
 * taken from under it. Where that transaction's claim held (the key was free,
 * so no attempt with this key had committed when it was refused), no first
 * answer can be the answer: the claim is `refused`, and the key is not read
 * again after the change (`idempotentMutations`). Else nothing changes (the
 * key is read after, as for any refusal).
 */
export const refusedByTheChange = (): void => {
  const claim = transactionClaims.getStore();
  if (claim?.state === 'pending' && claim.freeAtRefusal) claim.state = 'refused';
};

/** A transaction found the key already claimed: the request is a retry (or reuses the key). */
export class IdempotencyKeyTakenError extends Error {
  override name = 'IdempotencyKeyTakenError';
  constructor() {
    super('This Idempotency-Key was already claimed');
  }
}

/** DynamoDB's limit on a transaction's items: a change that fills it carries no claim. */
const TRANSACTION_ITEMS = 100;

const CLAIMS = Symbol.for('curbside.idempotency.transactionClaims');
const claimState = globalThis as { [CLAIMS]?: AsyncLocalStorage<TransactionClaim> };
claimState[CLAIMS] ??= new AsyncLocalStorage<TransactionClaim>();
export const transactionClaims = claimState[CLAIMS];

type TransactInput = { TransactItems?: Array<Record<string, unknown>> };

/**
 * Sends a TransactWriteItems with the running request's pending claim added
 * as its last item (a put that holds only where the key is absent or
 * expired), so the change and its key commit together or not at all. The
 * claim's cancellation reason is taken out of the error again, so the
 * store's own reading of its items' reasons is as before; a claim refused
 * throws `IdempotencyKeyTakenError`. Called by the table handle's middleware
 * (db.ts) for every transaction; without a pending claim it only sends.
 */
export const sendWithClaim = async <T>(input: TransactInput, send: () => Promise<T>): Promise<T> => {
  const claim = transactionClaims.getStore();
  const items = input.TransactItems;
  if (claim?.state !== 'pending' || !items || items.length >= TRANSACTION_ITEMS) return send();
  const now = Date.now();
  const expiresAt = now + IDEMPOTENCY_TTL_MS;
  const item = {
    ...idempotencyKeyOf(claim.caller, claim.key),
    fingerprint: claim.fingerprint,
    ...(claim.answered ?? { state: APPLIED, appliedAt: now }),
    expiresAt,
    ttl: Math.ceil(expiresAt / 1000),
  };
  // A transaction's write is billed twice (DynamoDB's transactional writes): 2 units, 1 more than a PutItem claim.
  meter.add('ddb.idempotencyWriteUnits', 2 * Math.max(1, Math.ceil(itemSize(item) / 1024)));
  delete claim.freeAtRefusal;
  const index = items.length;
  items.push({
    Put: {
      TableName: claim.table,
      Item: item,
      ConditionExpression: 'attribute_not_exists(pk) OR expiresAt <= :now',
      ExpressionAttributeValues: { ':now': now },
    },
  });
  try {
    const sent = await send();
    claim.state = 'committed';
    return sent;
  } catch (error) {
    items.splice(index, 1);
    const reasons = (error as { CancellationReasons?: unknown[] }).CancellationReasons;
    const codes = cancellationReasons(error);
    if (codes[index] === 'ConditionalCheckFailed') {
      claim.state = 'taken';
      throw new IdempotencyKeyTakenError();
    }
    // A reason for every item (DynamoDB's, and DynamoDB Local's, name each failed condition): the
    // claim's held while one of the change's own failed.
    claim.freeAtRefusal =
      codes.length === index + 1 && codes[index] === 'None' && codes.includes('ConditionalCheckFailed');
    if (Array.isArray(reasons) && reasons.length > index) reasons.splice(index, 1);
    throw error;
  }
};
