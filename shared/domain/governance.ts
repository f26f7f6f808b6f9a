/** Governance views over the governed objects (see typed-lists.ts for what each list shows). */

import * as z from 'zod/mini';
import {
  type ListElement,
  type ListedNode,
  listElementSchema,
  listPageOf,
  shortDescriptionOf,
} from './list-element.ts';
import type { Facet } from './node-types.ts';
import { countSchema, named } from './schema-parts.ts';

export const FINDINGS = ['NEVER_PUBLISHED', 'UNPUBLISHED_CHANGES', 'NO_DESCRIPTION'] as const;
export type Finding = (typeof FINDINGS)[number];

/** An object of the analyzer list: a ListElement with what needs attention. */
export const analyzerElementSchema = z.strictObject({
  ...listElementSchema.shape,
  findings: z.array(z.enum(FINDINGS)),
});
export type AnalyzerElement = z.output<typeof analyzerElementSchema>;
export const analyzerPageSchema = named(listPageOf(analyzerElementSchema), 'AnalyzerPage');

export function findingsOf(node: ListedNode): Finding[] {
  const findings: Finding[] = [];
  if (!node.publishedNodeVersionId) findings.push('NEVER_PUBLISHED');
  else if (node.nodeStatus !== 'PUBLISHED') findings.push('UNPUBLISHED_CHANGES');
  if (shortDescriptionOf(node.richTextDescription) === null) findings.push('NO_DESCRIPTION');
  return findings;
}

export function toAnalyzerElement(element: ListElement, node: ListedNode): AnalyzerElement {
  return { ...element, findings: findingsOf(node) };
}

/** One facet of the maturity list: its governed objects by status; publishedShare is published / total. */
export const maturityElementSchema = z.strictObject({
  '@type': z.literal('MaturityElement'),
  facet: z.string(),
  nodeTypes: z.array(z.string()),
  total: countSchema,
  inProgress: countSchema,
  published: countSchema,
  publishedShare: z.number().check(z.minimum(0), z.maximum(1)),
});
export type MaturityElement = z.output<typeof maturityElementSchema>;
export const maturityPageSchema = named(listPageOf(maturityElementSchema), 'MaturityPage');

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
