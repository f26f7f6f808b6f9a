/** One running stack per data folder; a crashed run's claim is taken over. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir } from '#infra/local/data-dir-lock.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'data-dir-lock-'));
  dirs.push(dir);
  return dir;
};

it('is taken once: a second stack, in this process or another running one, is refused until it is given back', () => {
  const dir = dataDir();
  const unlock = lockDataDir(dir);
  expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
  unlock();
  lockDataDir(dir)();
  // A running process holds it (this test's parent, say).
  writeFileSync(join(dir, 'running.pid'), String(process.ppid));
  expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
});

it('takes over the claim of a process that is gone (a crash)', () => {
  const dir = dataDir();
  writeFileSync(join(dir, 'running.pid'), '2147483646');
  const unlock = lockDataDir(dir);
  expect(readFileSync(join(dir, 'running.pid'), 'utf8')).toBe(String(process.pid));
  unlock();
});
