/** Reads of nodes. Writes go through node-write-path.ts. */
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import { ServiceUnavailableError } from '#shared/domain/errors.ts';
import type { Node } from '#shared/domain/node.ts';
import { retryableAsUnavailable } from './dynamo-errors.ts';
import { CHILD_LINK_PREFIX, childrenPartition, type NodeCopy, nodeKey, typePartition } from './keys.ts';
import { itemToNode } from './node-items.ts';
import { getItem, queryAll } from './reads.ts';
import { TABLE_SCHEMA } from './table-schema.ts';

const [byParent, byType] = TABLE_SCHEMA.indexes;

/** The working copy (or the published copy) of a node, deleted or not; null when there is none. */
export async function findNode(nodeId: string, copy: NodeCopy = 'DRAFT'): Promise<Node | null> {
  const item = await getItem(nodeKey(nodeId, copy));
  return item ? itemToNode(item) : null;
}

const nodesOf = async (indexName: string, partitionAttribute: string, partition: string) =>
  (await queryAll(partitionAttribute, partition, { indexName })).map(itemToNode);

/** Live (not deleted) children of a node, or of the library when parentId is null. */
export function findLiveChildren(parentId: string | null): Promise<Node[]> {
  return nodesOf(byParent.indexName, byParent.partitionKey, childrenPartition(parentId));
}

/** Live nodes of one type. */
export function findLiveNodesOfType(nodeType: string): Promise<Node[]> {
  return nodesOf(byType.indexName, byType.partitionKey, typePartition(nodeType));
}

/** Ids of a node's live children, strongly consistent (from the parent's child records). */
export async function findLiveChildIds(parentId: string): Promise<string[]> {
  const links = await queryAll(TABLE_SCHEMA.partitionKey, nodeKey(parentId).PK, {
    sortKeyPrefix: { attribute: TABLE_SCHEMA.sortKey, prefix: CHILD_LINK_PREFIX },
    consistent: true,
  });
  return links.map((link) => String(link.childId));
}

const BATCH_GET_LIMIT = 100;

/** Working copies of many nodes, strongly consistent, in no particular order. */
export async function findNodes(nodeIds: string[]): Promise<Node[]> {
  const TableName = config().tableName;
  const nodes: Node[] = [];
  for (let i = 0; i < nodeIds.length; i += BATCH_GET_LIMIT) {
    let keys: Record<string, unknown>[] | undefined = nodeIds
      .slice(i, i + BATCH_GET_LIMIT)
      .map((id) => nodeKey(id));
    // DynamoDB may leave keys unprocessed under load; ask again for exactly those.
    for (let attempt = 0; keys && keys.length > 0; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
      if (attempt > 5) throw new ServiceUnavailableError('The data store is busy; retry the request');
      try {
        const {
          Responses,
          UnprocessedKeys,
        }: {
          Responses?: Record<string, Record<string, unknown>[]>;
          UnprocessedKeys?: Record<string, { Keys?: Record<string, unknown>[] }>;
        } = await dynamoDb.send(
          new BatchGetCommand({ RequestItems: { [TableName]: { Keys: keys, ConsistentRead: true } } }),
        );
        nodes.push(...(Responses?.[TableName] ?? []).map(itemToNode));
        keys = UnprocessedKeys?.[TableName]?.Keys;
      } catch (error) {
        retryableAsUnavailable(error);
      }
    }
  }
  return nodes;
}
