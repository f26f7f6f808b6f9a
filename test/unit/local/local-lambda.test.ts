/** The local Lambda answers Invoke as the cloud does, to the real LambdaClient. */
import { AsyncLocalStorage } from 'node:async_hooks';
import { InvokeCommand, type InvokeCommandInput, LambdaClient } from '@aws-sdk/client-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type LocalFunction, type LocalLambda, startLocalLambda } from '#infra/local/local-lambda.ts';

let lambda: LocalLambda | undefined;
let client: LambdaClient | undefined;

async function start(functions: Record<string, LocalFunction>, run?: <T>(fn: () => T) => T) {
  lambda = await startLocalLambda({ functions, retryDelaysMs: [10, 20], ...(run ? { run } : {}) });
  client = new LambdaClient({
    endpoint: lambda.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  return lambda;
}

const invoke = (input: Omit<InvokeCommandInput, 'Payload'> & { payload?: unknown }) => {
  const { payload, ...rest } = input;
  return (client as LambdaClient).send(
    new InvokeCommand({
      ...rest,
      ...(payload === undefined ? {} : { Payload: Buffer.from(JSON.stringify(payload)) }),
    }),
  );
};

/** Keeps the failure log out of the test output, and lets tests read it. */
const quietErrors = () => vi.spyOn(console, 'error').mockImplementation(() => undefined);

afterEach(async () => {
  client?.destroy();
  await lambda?.close();
  lambda = undefined;
  vi.restoreAllMocks();
});

describe('asynchronous invocation (Event)', () => {
  it('answers 202 with no payload and runs the function once with the payload', async () => {
    const fn = vi.fn(async (_payload: unknown) => 'ignored');
    const local = await start({ assemble: fn });
    const answer = await invoke({ FunctionName: 'assemble', InvocationType: 'Event', payload: { id: 'F1' } });
    expect(answer.StatusCode).toBe(202);
    expect(answer.Payload?.length ?? 0).toBe(0);
    await local.idle();
    expect(fn).toHaveBeenCalledTimes(1);
    expect(fn).toHaveBeenCalledWith({ id: 'F1' });
  });

  it('retries a function that fails, and each attempt sees the payload as sent', async () => {
    const errors = quietErrors();
    const seen: unknown[] = [];
    const fn = vi.fn(async (payload: unknown) => {
      seen.push(structuredClone(payload));
      (payload as { touched?: boolean }).touched = true;
      if (seen.length === 1) throw new Error('first attempt fails');
      return 'done';
    });
    const local = await start({ assemble: fn });
    await invoke({ FunctionName: 'assemble', InvocationType: 'Event', payload: { id: 'F1' } });
    await local.idle();
    expect(fn).toHaveBeenCalledTimes(2);
    expect(seen).toEqual([{ id: 'F1' }, { id: 'F1' }]);
    expect(errors).toHaveBeenCalledTimes(1);
  });

  it('runs a function that always fails exactly three times, logging each failure as one JSON line', async () => {
    const errors = quietErrors();
    const fn = vi.fn(async () => {
      throw new TypeError('always');
    });
    const local = await start({ assemble: fn });
    await invoke({ FunctionName: 'assemble', InvocationType: 'Event', payload: {} });
    await local.idle();
    expect(fn).toHaveBeenCalledTimes(3);
    const lines = errors.mock.calls.map(([line]) => JSON.parse(String(line)));
    expect(lines).toEqual([
      expect.objectContaining({
        functionName: 'assemble',
        attempt: 1,
        retryInMs: 10,
        errorType: 'TypeError',
      }),
      expect.objectContaining({ attempt: 2, retryInMs: 20, errorMessage: 'always' }),
      expect.objectContaining({ attempt: 3, retryInMs: null }),
    ]);
  });

  it('refuses a payload over the asynchronous limit (1 MB) without running the function', async () => {
    const fn = vi.fn(async () => undefined);
    const local = await start({ assemble: fn });
    const tooLarge = 'x'.repeat(1024 * 1024);
    await expect(
      invoke({ FunctionName: 'assemble', InvocationType: 'Event', payload: tooLarge }),
    ).rejects.toMatchObject({ name: 'RequestEntityTooLargeException', $metadata: { httpStatusCode: 413 } });
    await local.idle();
    expect(fn).not.toHaveBeenCalled();
  });
});

describe('synchronous invocation (RequestResponse)', () => {
  it('answers the JSON result', async () => {
    await start({
      add: async (payload) => {
        const { a, b } = payload as { a: number; b: number };
        return { sum: a + b };
      },
    });
    const answer = await invoke({ FunctionName: 'add', payload: { a: 1, b: 2 } });
    expect(answer.StatusCode).toBe(200);
    expect(answer.FunctionError).toBeUndefined();
    expect(JSON.parse(answer.Payload?.transformToString() ?? '')).toEqual({ sum: 3 });
  });

  it('answers null for a function that returns nothing, given no payload', async () => {
    const fn = vi.fn(async () => undefined);
    await start({ noop: fn });
    const answer = await invoke({ FunctionName: 'noop' });
    expect(answer.Payload?.transformToString()).toBe('null');
    expect(fn).toHaveBeenCalledWith(null);
  });

  it("answers a thrown error as FunctionError 'Unhandled', as the Node.js runtime reports it", async () => {
    await start({
      fail: async () => {
        throw new RangeError('out of range');
      },
    });
    const answer = await invoke({ FunctionName: 'fail', payload: {} });
    expect(answer.StatusCode).toBe(200);
    expect(answer.FunctionError).toBe('Unhandled');
    expect(JSON.parse(answer.Payload?.transformToString() ?? '')).toMatchObject({
      errorType: 'RangeError',
      errorMessage: 'out of range',
    });
  });

  it('refuses a payload that is not JSON', async () => {
    await start({ noop: async () => undefined });
    await expect(
      client?.send(new InvokeCommand({ FunctionName: 'noop', Payload: Buffer.from('{not json') })),
    ).rejects.toMatchObject({ name: 'InvalidRequestContentException', $metadata: { httpStatusCode: 400 } });
  });

  it('answers 204 to a dry run without running the function', async () => {
    const fn = vi.fn(async () => undefined);
    await start({ noop: fn });
    const answer = await invoke({ FunctionName: 'noop', InvocationType: 'DryRun', payload: {} });
    expect(answer.StatusCode).toBe(204);
    expect(fn).not.toHaveBeenCalled();
  });
});

describe('function names', () => {
  it('makes the SDK throw ResourceNotFoundException for an unknown function', async () => {
    await start({ known: async () => undefined });
    await expect(invoke({ FunctionName: 'unknown', payload: {} })).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
      message: 'Function not found: unknown',
      $metadata: { httpStatusCode: 404 },
    });
  });

  it('finds a function by its ARN, partial ARN or qualified name', async () => {
    await start({ echo: async (payload) => payload });
    for (const FunctionName of [
      'arn:aws:lambda:us-east-1:123456789012:function:echo',
      'arn:aws:lambda:us-east-1:123456789012:function:echo:$LATEST',
      '123456789012:function:echo',
      'echo:live',
    ]) {
      const answer = await invoke({ FunctionName, payload: FunctionName });
      expect(JSON.parse(answer.Payload?.transformToString() ?? '')).toBe(FunctionName);
    }
  });

  it('answers another path as an unknown operation', async () => {
    const local = await start({ echo: async (payload) => payload });
    const answer = await fetch(`${local.endpoint}/2015-03-31/functions/echo`);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('x-amzn-errortype')).toBe('UnknownOperationException');
  });
});

describe('context and shutdown', () => {
  it('runs every invocation, synchronous or not, inside `run`', async () => {
    const stack = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    const local = await start(
      {
        whoami: async () => {
          seen.push(stack.getStore());
          return stack.getStore();
        },
      },
      (fn) => stack.run('stack-1', fn),
    );
    const answer = await invoke({ FunctionName: 'whoami' });
    await invoke({ FunctionName: 'whoami', InvocationType: 'Event' });
    await local.idle();
    expect(JSON.parse(answer.Payload?.transformToString() ?? '')).toBe('stack-1');
    expect(seen).toEqual(['stack-1', 'stack-1']);
  });

  it('close() waits for a running invocation, and refuses new ones', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let finished = false;
    const local = await start({
      slow: async () => {
        started();
        await released;
        finished = true;
      },
    });
    await invoke({ FunctionName: 'slow', InvocationType: 'Event' });
    await running;
    let closed = false;
    const closing = local.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(false);
    await expect(
      fetch(`${local.endpoint}/2015-03-31/functions/slow/invocations`, { method: 'POST', body: '{}' }),
    ).rejects.toThrow();
    release();
    await closing;
    expect(finished).toBe(true);
    lambda = undefined;
  });
});
