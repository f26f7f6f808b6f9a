/** Governance views over the governed objects (see typed-lists.ts for what each list shows). */

import { type ListElement, shortDescriptionOf } from './list-element.ts';
import type { Node } from './node.ts';
import type { Facet } from './node-types.ts';

export type Finding = 'NEVER_PUBLISHED' | 'UNPUBLISHED_CHANGES' | 'NO_DESCRIPTION';

/** An object of the analyzer list: a ListElement with what needs attention. */
export interface AnalyzerElement extends ListElement {
  findings: Finding[];
}

export function findingsOf(node: Node): Finding[] {
  const findings: Finding[] = [];
  if (!node.publishedNodeVersionId) findings.push('NEVER_PUBLISHED');
  else if (node.nodeStatus !== 'PUBLISHED') findings.push('UNPUBLISHED_CHANGES');
  if (shortDescriptionOf(node.richTextDescription) === null) findings.push('NO_DESCRIPTION');
  return findings;
}

export function toAnalyzerElement(element: ListElement, node: Node): AnalyzerElement {
  return { ...element, findings: findingsOf(node) };
}

/** One facet of the maturity list: its governed objects by status. */
export interface MaturityElement {
  '@type': 'MaturityElement';
  facet: Facet;
  nodeTypes: string[];
  total: number;
  inProgress: number;
  published: number;
  /** published / total, 0 when the facet is empty. */
  publishedShare: number;
}

export function maturityElement(
  facet: Facet,
  nodeTypes: readonly string[],
  inProgress: number,
  published: number,
): MaturityElement {
  const total = inProgress + published;
  return {
    '@type': 'MaturityElement',
    facet,
    nodeTypes: [...nodeTypes],
    total,
    inProgress,
    published,
    publishedShare: total === 0 ? 0 : Math.round((published / total) * 10_000) / 10_000,
  };
}
