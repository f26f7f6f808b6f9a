import { describe, expect, it } from 'vitest';
import { ifMatchAllows, ifNoneMatchHits } from '#shared/domain/preconditions.ts';

describe('If-Match', () => {
  it('lets a write through when absent, *, or naming the current version (weak or strong form)', () => {
    expect(ifMatchAllows(undefined, 'V1')).toBe(true);
    expect(ifMatchAllows('*', 'V1')).toBe(true);
    expect(ifMatchAllows('W/"V1"', 'V1')).toBe(true);
    expect(ifMatchAllows('"V0", W/"V1"', 'V1')).toBe(true);
    expect(ifMatchAllows('"V1"', 'V1')).toBe(true);
  });

  it('stops a write naming another version', () => {
    expect(ifMatchAllows('W/"V0"', 'V1')).toBe(false);
    expect(ifMatchAllows('', 'V1')).toBe(false);
  });
});

describe('If-None-Match', () => {
  it('hits only for the current version or *', () => {
    expect(ifNoneMatchHits(undefined, 'V1')).toBe(false);
    expect(ifNoneMatchHits('W/"V1"', 'V1')).toBe(true);
    expect(ifNoneMatchHits('*', 'V1')).toBe(true);
    expect(ifNoneMatchHits('W/"V0"', 'V1')).toBe(false);
  });
});
