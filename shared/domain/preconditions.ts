/**
 * Conditional requests (RFC 9110 §13) on a node's ETag `W/"<nodeVersionId>"`. Tags are compared
 * by their opaque part: every node ETag is weak, and clients echo it back as they received it.
 */

function opaqueTags(header: string): string[] {
  return header
    .split(',')
    .map((tag) =>
      tag
        .trim()
        .replace(/^W\//, '')
        .replace(/^"(.*)"$/, '$1'),
    )
    .filter((tag) => tag.length > 0);
}

/** If-Match: absent, `*`, or naming the current version lets a write proceed. */
export function ifMatchAllows(header: string | undefined, nodeVersionId: string): boolean {
  if (header === undefined) return true;
  const tags = opaqueTags(header);
  return tags.includes('*') || tags.includes(nodeVersionId);
}

/** If-None-Match naming the current version (or `*`) means the client's copy is current: 304. */
export function ifNoneMatchHits(header: string | undefined, nodeVersionId: string): boolean {
  if (header === undefined) return false;
  const tags = opaqueTags(header);
  return tags.includes('*') || tags.includes(nodeVersionId);
}
