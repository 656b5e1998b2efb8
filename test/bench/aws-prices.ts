/**
 * AWS list prices the benchmark's cost model uses: us-east-1, on-demand, no
 * free tier. Each price cites the page it comes from; check them there when
 * they change.
 */
export const AWS_PRICES = {
  lambda: {
    // https://aws.amazon.com/lambda/pricing/ — "Requests: $0.20 per 1M requests"
    perRequest: 0.2 / 1_000_000,
    // https://aws.amazon.com/lambda/pricing/ — Arm price, first 7.5 billion GB-seconds/month: $0.0000133334 per GB-second
    perGbSecondArm64: 0.0000133334,
    /** Every function's configured memory (infra/lib/handler-function.ts: memorySize 512, ARM_64). */
    memoryGb: 512 / 1024,
  },
  httpApi: {
    // https://aws.amazon.com/api-gateway/pricing/ — HTTP APIs: $1.00 per million requests (first 300 million), metered in 512 KB increments
    perRequest: 1.0 / 1_000_000,
    requestIncrementBytes: 512 * 1024,
  },
  webSocketApi: {
    // https://aws.amazon.com/api-gateway/pricing/ — WebSocket APIs: $1.00 per million messages (first 1 billion), metered in 32 KB increments
    perMessage: 1.0 / 1_000_000,
    messageIncrementBytes: 32 * 1024,
    // https://aws.amazon.com/api-gateway/pricing/ — WebSocket APIs: $0.25 per million connection minutes
    perConnectionMinute: 0.25 / 1_000_000,
  },
  dynamoDb: {
    // https://aws.amazon.com/dynamodb/pricing/on-demand/ — $0.625 per million write request units
    perWriteUnit: 0.625 / 1_000_000,
    // https://aws.amazon.com/dynamodb/pricing/on-demand/ — $0.125 per million read request units
    perReadUnit: 0.125 / 1_000_000,
  },
} as const;
