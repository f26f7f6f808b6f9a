/**
 * Conditional requests (RFC 9110 §13) on the current ETag of what a request reads or changes: a node's
 * weak `W/"<nodeVersionId>"`, or a file's strong `"<sha256>"`. Every route that takes them evaluates
 * them here, in the order of §13.2.2: If-Match first, then If-None-Match (If-Range is the download's own,
 * for a Range alone). They are evaluated only once the target is found and the caller may act on it, so
 * a 404 or 403 stays one.
 */
import { PreconditionFailedError } from './errors.ts';

/** The conditional headers of a request, as sent. */
export interface Preconditions {
  ifMatch?: string | undefined;
  ifNoneMatch?: string | undefined;
}

interface EntityTag {
  opaque: string;
  weak: boolean;
}

/** The tags of an If-Match or If-None-Match list; `*` is a tag of its own. */
function tagsOf(header: string): EntityTag[] {
  return header
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag.length > 0)
    .map((tag) => ({
      opaque: tag.replace(/^W\//, '').replace(/^"(.*)"$/, '$1'),
      weak: tag.startsWith('W/'),
    }));
}

const isAny = (tag: EntityTag) => tag.opaque === '*' && !tag.weak;

/**
 * If-Match (§13.1.1): absent, `*`, or a tag that matches the current ETag. A node's ETag is weak, and
 * clients echo it back as they received it (or unquoted of its W/): its opaque part names one version, so
 * that part is compared. A strong ETag (a file's content hash) takes the strong comparison the RFC asks of
 * If-Match: a weak tag never matches it.
 */
export function ifMatchAllows(header: string | undefined, etag: string): boolean {
  if (header === undefined) return true;
  const current = tagsOf(etag)[0];
  if (!current) return false;
  return tagsOf(header).some(
    (tag) => isAny(tag) || (tag.opaque === current.opaque && (current.weak || !tag.weak)),
  );
}

/** If-None-Match (§13.1.2): `*` (the target exists), or a tag matching the current ETag by weak comparison. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const current = tagsOf(etag)[0];
  if (!current) return false;
  return tagsOf(header).some((tag) => isAny(tag) || tag.opaque === current.opaque);
}

/**
 * Whether If-Match names a version, as publish and restore take it instead of the body's nodeVersionId:
 * `*` names none (it holds for whatever version is current, so it guards against no lost update).
 */
export function ifMatchNamesVersion(header: string | undefined): boolean {
  if (header === undefined) return false;
  const tags = tagsOf(header);
  // `*` beside a tag would let any version through: no quote either.
  return tags.length > 0 && !tags.some(isAny);
}

/**
 * The preconditions of a request on a target that exists with `etag` (§13.2.2). A failed one throws a 412
 * naming its header; on a read (GET, HEAD) If-None-Match that hits answers 'notModified' (304) instead,
 * while on a write (PUT, PATCH, POST, DELETE) it fails: the client asked not to act on this version.
 */
export function evaluatePreconditions(
  conditions: Preconditions,
  etag: string,
  request: 'read' | 'write',
): 'proceed' | 'notModified' {
  if (!ifMatchAllows(conditions.ifMatch, etag)) {
    throw new PreconditionFailedError(`If-Match does not name the current version ${etag}`, etag);
  }
  if (ifNoneMatchHits(conditions.ifNoneMatch, etag)) {
    if (request === 'read') return 'notModified';
    throw new PreconditionFailedError(
      `If-None-Match names the current version ${etag} (or is *, and the object exists): nothing was changed`,
      etag,
    );
  }
  return 'proceed';
}
