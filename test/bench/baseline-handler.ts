// The baseline of the bundle benchmarks: a handler that only creates a DynamoDB client.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

const client = new DynamoDBClient({});

export const handler = async () => ({ statusCode: 200, body: String(client.config.apiVersion) });
