import type { LambdaClient } from '@aws-sdk/client-lambda';
import { quietSdkLogger } from '@curbside/store';
import { config, type FunctionVariable } from './config';

/**
 * Work that goes on after a request answers (an import job's run, a mail
 * run): in AWS an asynchronous invocation of the function named by the
 * environment variable `env`; on a laptop the runtime registers a starter
 * that runs the same handler in-process.
 */
export const asyncStarter = <T>(env: FunctionVariable, what: string) => {
  type Starter = (payload: T) => Promise<void>;
  // On the process, not in this module: the built bundles' copies of it find the laptop's starter too.
  const key = Symbol.for(`curbside.asyncStarter.${env}`);
  const slot = globalThis as { [key]?: Starter };
  let client: LambdaClient | undefined;
  return {
    /** The laptop runtime runs the work itself; answers a function that puts back the starter before. */
    register(starter: Starter) {
      const previous = slot[key];
      slot[key] = starter;
      return () => {
        if (slot[key] === starter) slot[key] = previous;
      };
    },
    /** Starts the work; `functionName` defaults to the variable's value (a function continuing itself names itself). */
    async start(payload: T, functionName = config.functionName(env)): Promise<void> {
      const inProcess = slot[key];
      if (inProcess) return inProcess(payload);
      if (!functionName) throw new Error(`${env} is not set: ${what}`);
      // Loaded on the first start (only a few routes start work): not part of the function's cold start.
      const { InvokeCommand, LambdaClient } = await import('@aws-sdk/client-lambda');
      client ??= new LambdaClient({ logger: quietSdkLogger });
      await client.send(
        new InvokeCommand({
          FunctionName: functionName,
          InvocationType: 'Event',
          Payload: new TextEncoder().encode(JSON.stringify(payload)),
        }),
      );
    },
  };
};
