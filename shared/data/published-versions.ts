/**
 * Which version of a node was published first after a moment: the versions a node had are kept under
 * time-ordered ids (UUIDv7, see newVersionId), so the search starts at that moment in key order.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import { type Node, versionIdTime } from '#shared/domain/node.ts';
import { nodeVersions } from './entities/nodes.ts';
import { nodeKey, VERSION_PREFIX } from './keys.ts';

/** The first version published at or after `sinceMs` among those the node has replaced, or null. */
export async function firstPublishedVersionSince(nodeId: string, sinceMs: number): Promise<Node | null> {
  const from = `${VERSION_PREFIX}${versionIdFloor(sinceMs)}`;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamoDb().send(
      new QueryCommand({
        TableName: config().tableName,
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        // A publish names itself; the copy a delete left keeps the status it had, but not as a publish.
        FilterExpression: 'nodeStatus = :published AND publishedNodeVersionId = nodeVersionId',
        ExpressionAttributeValues: {
          ':pk': nodeKey(nodeId).PK,
          ':from': from,
          ':to': `${VERSION_PREFIX}\uffff`,
          ':published': 'PUBLISHED',
        },
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    // Ids from before time-ordered ids may sort anywhere: only a version made since counts.
    const since = (page.Items ?? [])
      .map((item) => nodeVersions.fromItem(item))
      .find((version) => (versionIdTime(version.nodeVersionId) ?? 0) >= sinceMs);
    if (since) return since;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return null;
}

/** The smallest version id made at `ms`: its time, then zeros (key order matches time order). */
function versionIdFloor(ms: number): string {
  const hex = ms.toString(16).toUpperCase().padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-`;
}
