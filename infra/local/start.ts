/** `npm start`: the API on the embedded stack at http://localhost:3000/api/v1 (PORT, DATA_DIR, …). */
import { readLocalStackConfig } from '#shared/config/index.ts';
import { DataDirInUseError } from './data-dir-lock.ts';
import { startEmbeddedStack } from './embedded-stack.ts';

const settings = readLocalStackConfig();
const starting = startEmbeddedStack({ ...settings });
// Listening for Ctrl-C from the start: one that comes while the stack starts stops it once it has.
let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping…`);
  await (await starting).close();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
const stack = await starting.catch((error: NodeJS.ErrnoException) => {
  if (error.code === 'EADDRINUSE') {
    console.error(
      `Port ${settings.port} on ${settings.host} is in use (another npm start?): stop that, or set PORT to a free port.`,
    );
  } else if (error instanceof DataDirInUseError) {
    console.error(
      `DATA_DIR ${settings.dataDir} is in use by another npm start (process ${error.pid}): stop that, or set DATA_DIR to another folder.`,
    );
  } else if (error.code === 'ENOTFOUND' || error.code === 'EADDRNOTAVAIL') {
    console.error(
      `HOST ${settings.host} is not an address of this machine: set HOST to one (default 127.0.0.1).`,
    );
  } else {
    throw error;
  }
  process.exit(1);
});
const { bootstrap } = stack;

if (bootstrap.created) {
  console.log(
    `First start: created the system administrator "${bootstrap.adminUsername}" and the environment "Default".`,
  );
  if (bootstrap.generatedPassword) {
    console.log(
      `  Generated password (shown only now, set ADMIN_PASSWORD to choose one): ${bootstrap.generatedPassword}`,
    );
  }
}
const shownUrl = settings.host === '127.0.0.1' ? `http://localhost:${stack.port}` : stack.url;
console.log(`Content Repository API on ${shownUrl}/api/v1 (data in ${settings.dataDir}); Ctrl-C stops it.`);
