import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

/** API Gateway HTTP API (payload 2.0) event and result: what every handler takes and gives. */
export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2 & {
  statusCode: number;
  headers: Record<string, string>;
};
export type HttpHandler = (event: HttpEvent, context: Context) => Promise<HttpResult>;
