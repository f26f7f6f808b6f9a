/** Every operation of the service: the CDK stack, the local adapter and the reference all read this list. */
import * as actions from './actions.ts';
import * as admin from './admin.ts';
import * as auth from './auth.ts';
import * as changes from './changes.ts';
import * as grants from './grants.ts';
import * as lists from './lists.ts';
import * as nodeReads from './node-reads.ts';
import * as nodes from './nodes.ts';
import * as process from './process.ts';
import * as relations from './relations.ts';
import * as service from './service.ts';
import * as trash from './trash.ts';
import * as uploads from './uploads.ts';
import * as versions from './versions.ts';
import * as webhooks from './webhooks.ts';

export const OPERATION_LIST = [
  ...Object.values(auth),
  // In the order of spec §4: create, retrieve, update, delete, then the per-type retrieves.
  nodes.createNode,
  nodeReads.getNode,
  nodes.updateNode,
  nodes.deleteNode,
  nodeReads.getTypedNode,
  ...Object.values(process),
  ...Object.values(uploads),
  ...Object.values(versions),
  ...Object.values(trash),
  ...Object.values(lists),
  ...Object.values(admin),
  ...Object.values(grants),
  ...Object.values(relations),
  ...Object.values(actions),
  ...Object.values(changes),
  ...Object.values(webhooks),
  ...Object.values(service),
];

export type Operation = (typeof OPERATION_LIST)[number];
export type OperationName = Operation['name'];

/** Unmatched requests go to this operation (API Gateway's `$default` route). */
export const FALLBACK_OPERATION = service.routeNotFound;
