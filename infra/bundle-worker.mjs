/**
 * The worker thread of bundleFunctionSync (bundling.ts): builds each bundle it is asked for with esbuild's
 * asynchronous API, posts the metafile (or the error) on the request's port, then raises its flag.
 * Plain JavaScript so that Node starts it without a loader, whatever runs the calling thread; it
 * registers tsx for the TypeScript it imports. A failure to load answers every request.
 */
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const loading = import('./bundling.ts');
// Reported with the first request instead of ending the worker unseen.
loading.catch(() => {});

parentPort?.on('message', async ({ entry, outDir, done, reply }) => {
  try {
    const { bundleFunction } = await loading;
    reply.postMessage({ metafile: await bundleFunction(entry, outDir) });
  } catch (error) {
    reply.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  } finally {
    reply.close();
    Atomics.store(done, 0, 1);
    Atomics.notify(done, 0);
  }
});
