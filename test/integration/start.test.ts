/**
 * `npm start` as a user runs it: a child process on the embedded stack, first-start bootstrap, data
 * kept across restarts, and a clean stop on Ctrl-C (SIGINT).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient } from './helpers/test-stack.ts';

const projectRoot = resolve(import.meta.dirname, '..', '..');
const dataDirs: string[] = [];
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  output: () => string;
  url: string;
}

/** The start script's node arguments, as package.json has them (`node <arguments>`). */
const startArguments = (): string[] => {
  const { scripts } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const [command, ...args] = scripts.start.split(/\s+/);
  if (command !== 'node') throw new Error(`npm start runs ${command}, not node`);
  return args;
};

/** `npm start` as a child process (any port, quiet logs unless `env` says otherwise), its output kept. */
function spawnStart(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, startArguments(), {
    cwd: projectRoot,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  return { child, output: () => output };
}

async function start(env: Record<string, string>): Promise<Started> {
  const { child, output } = spawnStart(env);
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no start within 60 s:\n${output()}`)), 60_000);
    const check = () => {
      const match = /API on (http:\/\/\S+)\/api\/v1/.exec(output());
      if (match?.[1]) {
        clearTimeout(timer);
        done(match[1]);
      }
    };
    child.stdout?.on('data', check);
    child.on('exit', (code) => fail(new Error(`exited with ${code} before serving:\n${output()}`)));
  });
  return { child, output, url };
}

async function stopWithCtrlC(started: Started): Promise<number | null> {
  const exited = new Promise<number | null>((done) => started.child.on('exit', (code) => done(code)));
  started.child.kill('SIGINT');
  return exited;
}

describe('npm start', () => {
  it('bootstraps once with a generated password, keeps data across restarts and stops cleanly on Ctrl-C', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'content-repository-start-'));
    dataDirs.push(dataDir);

    const first = await start({ DATA_DIR: dataDir, ADMIN_USERNAME: 'owner' });
    expect(first.output()).toContain(
      'created the system administrator "owner" and the environment "Default"',
    );
    const password = /Generated password[^:]*: (\S+)/.exec(first.output())?.[1] as string;
    expect(password).toMatch(/^[\w-]{20,}$/);
    const api = new ApiClient(first.url);
    const token = await api.login('owner', password);
    const list = await api.call('GET', '/api/v1/list?nodeType=ENVIRONMENT', { token });
    const environmentId = list.body.results[0].nodeId;
    const folder = await api.call('POST', '/api/v1/items', {
      token,
      body: {
        parent: { nodeId: environmentId },
        '@type': 'NodeElement',
        nodeType: 'DOCUMENT_SET',
        name: 'Kept',
      },
    });
    expect(folder.status).toBe(200);
    expect(await stopWithCtrlC(first)).toBe(0);
    expect(first.output()).toContain('SIGINT: stopping');

    const second = await start({ DATA_DIR: dataDir, ADMIN_USERNAME: 'owner' });
    expect(second.output()).not.toContain('Generated password');
    expect(second.output()).not.toContain('First start');
    const again = new ApiClient(second.url);
    const secondToken = await again.login('owner', password);
    const kept = await again.call('GET', `/api/v1/items/${folder.body.nodeId}`, { token: secondToken });
    expect(kept.body).toEqual(folder.body);
    // The token of the first run is still valid: sessions and the signing key live under DATA_DIR.
    expect((await again.call('GET', `/api/v1/items/${folder.body.nodeId}`, { token })).status).toBe(200);
    expect(await stopWithCtrlC(second)).toBe(0);
  });

  it('on a port in use or a HOST not of this machine, says so and creates nothing: the next start still shows the generated password', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'content-repository-start-'));
    dataDirs.push(parent);
    const dataDir = join(parent, 'data');
    const holder = createServer();
    await new Promise<void>((done) => holder.listen(0, '127.0.0.1', done));
    const { port } = holder.address() as AddressInfo;
    const failedStart = async (env: Record<string, string>, says: string) => {
      const { child, output } = spawnStart({ DATA_DIR: dataDir, ...env });
      const code = await new Promise<number | null>((done) => child.on('exit', done));
      expect(code).toBe(1);
      expect(output()).toContain(says);
      expect(output()).not.toContain('First start');
      expect(existsSync(dataDir)).toBe(false);
    };
    try {
      await failedStart({ PORT: String(port) }, `Port ${port} on 127.0.0.1 is in use`);
      await failedStart({ PORT: '0', HOST: '999.1.1.1' }, 'HOST 999.1.1.1 is not an address of this machine');
    } finally {
      await new Promise((done) => holder.close(done));
    }
    const next = await start({ DATA_DIR: dataDir });
    expect(next.output()).toContain('Generated password');
    expect(await stopWithCtrlC(next)).toBe(0);
  });

  it('refuses a second start on a DATA_DIR a running one holds, leaving that one serving', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'content-repository-start-'));
    dataDirs.push(dataDir);
    const running = await start({ DATA_DIR: dataDir, ADMIN_PASSWORD: 'chosen-password-123' });
    const second = spawnStart({ DATA_DIR: dataDir });
    const code = await new Promise<number | null>((done) => second.child.on('exit', done));
    expect(code).toBe(1);
    expect(second.output()).toContain(`DATA_DIR ${dataDir} is in use by another npm start`);
    await new ApiClient(running.url).login('admin', 'chosen-password-123');
    expect(await stopWithCtrlC(running)).toBe(0);
    // Stopped, it gives the folder back.
    const next = await start({ DATA_DIR: dataDir });
    expect(await stopWithCtrlC(next)).toBe(0);
  });

  it('takes the administrator password from ADMIN_PASSWORD and prints none', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'content-repository-start-'));
    dataDirs.push(dataDir);
    const started = await start({
      DATA_DIR: dataDir,
      ADMIN_USERNAME: 'chief',
      ADMIN_PASSWORD: 'chosen-password-123',
    });
    expect(started.output()).not.toContain('Generated password');
    expect(started.output()).not.toContain('chosen-password-123');
    await new ApiClient(started.url).login('chief', 'chosen-password-123');
    expect(await stopWithCtrlC(started)).toBe(0);
  });
});
