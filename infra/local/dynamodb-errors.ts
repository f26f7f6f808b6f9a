/** DynamoDB's JSON-protocol error bodies, as the AWS SDK expects to parse them. */

export class DynamoDbWireError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly statusCode = 400,
  ) {
    super(message);
  }

  toBody(): string {
    return JSON.stringify({
      __type: `com.amazonaws.dynamodb.v20120810#${this.type}`,
      message: this.message,
      ...this.extra,
    });
  }
}

export const validationError = (message: string) => new DynamoDbWireError('ValidationException', message);
