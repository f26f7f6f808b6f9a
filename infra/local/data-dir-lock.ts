/**
 * One running embedded stack per data folder: two would write the same table journal, bucket and queue
 * files over each other (a second npm start on another port crashed the first). The folder holds the
 * running process's id while it runs; a file left by a process that is gone (a crash) is taken over.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`${dataDir} is in use by another running stack (process ${pid})`);
  }
}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Takes the folder for this process; answers how to give it back. Throws DataDirInUseError when taken. */
export function lockDataDir(dataDir: string): () => void {
  const file = join(dataDir, 'running.pid');
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number.parseInt(readFileSync(file, 'utf8'), 10);
    // This process too: another stack of it (tests run several) has the folder open.
    if (attempt > 0 || (Number.isInteger(holder) && isRunning(holder))) {
      throw new DataDirInUseError(dataDir, holder);
    }
    rmSync(file, { force: true });
  }
}
