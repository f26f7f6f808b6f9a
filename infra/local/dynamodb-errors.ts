/** DynamoDB's JSON-protocol error bodies, as the AWS SDK expects to parse them. */

const NAMESPACE = 'com.amazonaws.dynamodb.v20120810';

export class DynamoDbWireError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly statusCode = 400,
    /** The service namespace of `__type` (dynalite's validation errors name another one). */
    readonly namespace = NAMESPACE,
  ) {
    super(message);
  }

  /** The error an answer of the store carries (its status and JSON body). */
  static fromAnswer(status: number, body: Record<string, unknown>): DynamoDbWireError {
    const { __type, message, Message, ...extra } = body;
    const [namespace, type] = String(__type ?? `${NAMESPACE}#InternalServerError`).split('#');
    return new DynamoDbWireError(
      type ?? 'InternalServerError',
      String(message ?? Message ?? ''),
      extra,
      status,
      namespace ?? NAMESPACE,
    );
  }

  toJSON(): Record<string, unknown> {
    return { __type: `${this.namespace}#${this.type}`, message: this.message, ...this.extra };
  }

  toBody(): string {
    return JSON.stringify(this.toJSON());
  }
}

export const validationError = (message: string) => new DynamoDbWireError('ValidationException', message);

/** One DynamoDB operation on the store (its wire JSON in and out); failures throw DynamoDbWireError. */
export type WireCall = (
  operation: string,
  input: Record<string, unknown>,
) => Promise<Record<string, unknown>>;
