/**
 * A node's version history: the working copy (the current version) and every version it had before,
 * newest first; one version as it was; and restoring an old version as the next working copy.
 */
import { findVersion, versionsPage } from '#shared/data/version-repository.ts';
import { NotFoundError } from '#shared/domain/errors.ts';
import { type Node, timestamp } from '#shared/domain/node.ts';
import { kindOf } from '#shared/domain/node-types.ts';
import { toVersionElement, type VersionElement } from '#shared/domain/node-version.ts';
import type { Caller } from '#shared/domain/user.ts';
import { getNode } from './node-reads.ts';
import { nextVersionOf, replaceWorkingCopy } from './node-service.ts';
import { type CursorRequest, cursorPage } from './paging.ts';
import { quotedNode, type VersionQuote } from './publish-service.ts';
import { edgesCarried, splitCarried } from './task-geometry.ts';

/** Where the earlier versions start, for a cursor: the first page also carries the working copy. */
const FROM_THE_START = 'start';

export async function listVersions(caller: Caller, nodeId: string, query: CursorRequest) {
  const current = await getNode(caller, nodeId, true);
  return cursorPage(
    `versions ${nodeId}`,
    'nodeVersionId',
    query,
    async (limit, after): Promise<{ results: VersionElement[]; next?: string }> => {
      const head = after === undefined ? [toVersionElement(current, true)] : [];
      const room = limit - head.length;
      if (room === 0) return { results: head, next: FROM_THE_START };
      const page = await versionsPage(nodeId, room, after === FROM_THE_START ? undefined : after);
      const earlier = page.versions
        .filter((version) => version.nodeVersionId !== current.nodeVersionId)
        .map((version) => toVersionElement(version, false));
      return { results: [...head, ...earlier], ...(page.next ? { next: page.next } : {}) };
    },
    'DESC',
  );
}

/** One version of a node the caller may read, as it was. */
export async function getVersion(caller: Caller, nodeId: string, nodeVersionId: string): Promise<Node> {
  const current = await getNode(caller, nodeId, true);
  const wanted = nodeVersionId.toUpperCase();
  if (wanted === current.nodeVersionId) return current;
  const version = await findVersion(nodeId, wanted);
  if (!version) {
    throw new NotFoundError('VERSION_NOT_FOUND', `Object ${nodeId} has no version ${nodeVersionId}`);
  }
  return version;
}

/**
 * The old version's content (name, description, reference number, extensions and its type's fields, a
 * FILE document's file included) becomes the next working copy, in progress; where the object sits, its
 * published copy, and what goes with a process's diagram (its tasks, edges and BPMN file) stay as they are.
 */
export async function restoreVersion(
  caller: Caller,
  nodeId: string,
  nodeVersionId: string,
  quote: VersionQuote,
): Promise<Node> {
  const current = await quotedNode(caller, nodeId, quote, 'edit');
  const old = await getVersion(caller, nodeId, nodeVersionId);
  const restored: Node = {
    ...nextVersionOf(current, caller, timestamp()),
    name: old.name,
    richTextDescription: old.richTextDescription,
    referenceNumber: old.referenceNumber,
    extensions: old.extensions,
    fields: {
      ...old.fields,
      ...Object.fromEntries(
        kindOf(current.nodeType).keptOnRestore.map((name) => [name, current.fields[name]]),
      ),
    },
  };
  // A task's old geometry takes its edges' ends along, as an update's does.
  const carried = splitCarried(await edgesCarried(caller, current, restored));
  await replaceWorkingCopy(current, restored, carried.along);
  await carried.after();
  return restored;
}
