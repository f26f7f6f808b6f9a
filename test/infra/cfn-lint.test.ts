/**
 * cfn-lint (on this image and CI's) finds no error in the synthesized templates of each kind of stage:
 * resource properties, IAM policy syntax, lifecycle rules and references as CloudFormation checks them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../fixtures/scratch-dir.ts';
import { synthesize } from '../fixtures/synth.ts';

const hasCfnLint = spawnSync('cfn-lint', ['--version']).status === 0;
const dir = scratchDir('cfn-lint');

interface Finding {
  Level: string;
  Rule: { Id: string };
  Message: string;
}

describe.runIf(hasCfnLint)('cfn-lint', () => {
  it('finds no error in the templates of a kept stage and an ephemeral one', () => {
    const files = ['prod', 'pr-42'].map((stage) => {
      const file = join(dir, `${stage}.json`);
      writeFileSync(file, JSON.stringify(synthesize({ stage }).template.toJSON()));
      return file;
    });
    let output: string;
    try {
      output = execFileSync('cfn-lint', ['--format', 'json', ...files], { encoding: 'utf8' });
    } catch (error) {
      // cfn-lint exits non-zero whenever it reports anything; its findings are on stdout.
      output = (error as { stdout: string }).stdout;
    }
    const findings = JSON.parse(output || '[]') as Finding[];
    expect(findings.filter((f) => f.Level === 'Error').map((f) => `${f.Rule.Id} ${f.Message}`)).toEqual([]);
  }, 120_000);
});
