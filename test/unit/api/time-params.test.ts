import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { lowerBoundTimeParam, timestampParam } from '#shared/api/params.ts';

describe('times in query parameters', () => {
  it('a lower bound written finer than milliseconds rounds up: nothing earlier than it passes', () => {
    const bound = (s: string) => z.parse(lowerBoundTimeParam, s);
    expect(bound('2026-11-25T11:28:53.036001Z')).toBe('2026-11-25T11:28:53.037Z');
    expect(bound('2026-11-25T11:28:53.036000Z')).toBe('2026-11-25T11:28:53.036Z');
    expect(bound('2026-11-25T11:28:53Z')).toBe('2026-11-25T11:28:53.000Z');
    expect(bound('2026-11-25T12:28:53.999500+01:00')).toBe('2026-11-25T11:28:54.000Z');
    // Ten digits or more, which Date alone misreads.
    expect(bound('2026-11-25T11:28:00.0369999999Z')).toBe('2026-11-25T11:28:00.037Z');
    expect(bound('2026-11-25T11:28:00.0360000001Z')).toBe('2026-11-25T11:28:00.037Z');
  });

  it('a feed position keeps its millisecond (the changes recorded in it)', () => {
    expect(z.parse(timestampParam, '2026-11-25T11:28:53.036001Z')).toBe('2026-11-25T11:28:53.036Z');
    expect(z.parse(timestampParam, '2026-11-25T11:28:00.0369999999Z')).toBe('2026-11-25T11:28:00.036Z');
  });
});
