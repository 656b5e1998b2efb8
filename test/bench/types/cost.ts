export interface Usage {
  lambdaRequests: number;
  lambdaGbSeconds: number;
  httpApiRequests: number;
  webSocketMessages: number;
  connectionMinutes: number;
  readUnits: number;
  writeUnits: number;
}

export interface Priced {
  usage: Usage;
  dollars: {
    lambdaRequests: number;
    lambdaDuration: number;
    httpApi: number;
    webSocketMessages: number;
    connectionMinutes: number;
    dynamoDbReads: number;
    dynamoDbWrites: number;
    total: number;
  };
}

export interface CostModel {
  asRun: Priced;
  dismissal: Priced;
  /** The part of a dismissal that is the staff screens' reads (loads, polls, reads after a missed event). */
  dismissalScreenReads: Priced;
  dropoff: Priced;
  month: Priced;
  perCar: { dismissal: number; dropoff: number };
  /**
   * What the specification's own intervals cost over a dismissal, whatever
   * the implementation: every socket's ping and pong, the drivers' positions
   * and heartbeats, one bus message per map screen per second, the polls,
   * the connection minutes. No car, no DynamoDB, no Lambda duration.
   */
  floor: Priced;
  assumptions: string[];
}
