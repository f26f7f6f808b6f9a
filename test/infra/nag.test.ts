/** cdk-nag AwsSolutions: no unacknowledged finding on any kind of stage, and every acknowledgement has a reason. */
import { Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { synthesize } from '../fixtures/synth.ts';

describe('cdk-nag AwsSolutions', () => {
  for (const stage of ['prod', 'tenant-acme', 'pr-42']) {
    it(`passes for stage ${stage}`, () => {
      const { app } = synthesize({ stage });
      const report = new AwsSolutionsChecks(app).validateScope(app);
      const findings = report.violations.map(
        (v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`,
      );
      expect(findings).toEqual([]);
      Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
      expect(() => app.synth()).not.toThrow();
    });
  }

  it('every acknowledgement carries a written reason', () => {
    const { stack } = synthesize({ stage: 'pr-42' });
    const acknowledged = stack.node
      .findAll()
      .flatMap((c) => c.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY))
      .flatMap((m) => Object.entries(m.data as Record<string, string>));
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const [, reason] of acknowledged) expect(reason.length).toBeGreaterThan(40);
  });
});
