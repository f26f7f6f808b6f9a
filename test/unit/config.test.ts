import { describe, expect, it } from 'vitest';
import { readLocalStackConfig, readServiceConfig } from '#shared/config/index.ts';

const base = { TABLE_NAME: 't', BUCKET_NAME: 'b', TOKEN_SIGNING_KEY_FILE: '/k.pem' };

describe('service configuration', () => {
  it('reads the environment with documented defaults', () => {
    expect(readServiceConfig(base)).toMatchObject({
      tableName: 't',
      bucketName: 'b',
      tokenSigningKeyFile: '/k.pem',
      tokenSigningKeyId: undefined,
      sessionTimeoutMinutes: 30,
      sessionRecheckSeconds: 5,
      webTokenExpiresInDays: 1,
      logLevel: 'info',
    });
  });

  it('fails fast, naming the variable', () => {
    expect(() => readServiceConfig({ ...base, TABLE_NAME: '' })).toThrow(/TABLE_NAME is required/);
    expect(() => readServiceConfig({ ...base, TOKEN_SIGNING_KEY_ID: 'k' })).toThrow(
      /exactly one of TOKEN_SIGNING_KEY_ID/,
    );
    expect(() => readServiceConfig({ ...base, SESSION_TIMEOUT: 'soon' })).toThrow(
      /SESSION_TIMEOUT must be a whole number/,
    );
    // The settings API takes whole numbers: what GET /admin/settings shows of these can be sent back.
    expect(() => readServiceConfig({ ...base, SESSION_TIMEOUT: '2.5' })).toThrow(
      /SESSION_TIMEOUT must be a whole number/,
    );
    expect(() => readServiceConfig({ ...base, WEBTOKEN_EXPIRES_IN: '0.5' })).toThrow(
      /WEBTOKEN_EXPIRES_IN must be a whole number from 1 to 30/,
    );
    expect(() => readServiceConfig({ ...base, LOG_LEVEL: 'debug' })).toThrow(/LOG_LEVEL/);
  });

  it('embedded stack: port 3000 and .data by default, overridable', () => {
    expect(readLocalStackConfig({})).toMatchObject({
      port: 3000,
      dataDir: '.data',
      adminUsername: 'admin',
      adminPassword: undefined,
    });
    expect(readLocalStackConfig({ PORT: '8080', DATA_DIR: '/tmp/x' })).toMatchObject({
      port: 8080,
      dataDir: '/tmp/x',
    });
  });
});

describe('configurations side by side', () => {
  it('each call sees the configuration it runs with, and gets that configuration’s own clients', async () => {
    const { config, perConfig, withConfig } = await import('#shared/config/index.ts');
    const a = readServiceConfig({ ...base, TABLE_NAME: 'table-a' });
    const b = readServiceConfig({ ...base, TABLE_NAME: 'table-b' });
    const clientOf = perConfig((c) => ({ table: c.tableName }));
    const [inA, inB] = await Promise.all([
      withConfig(a, async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { table: config().tableName, client: clientOf() };
      }),
      withConfig(b, async () => ({ table: config().tableName, client: clientOf() })),
    ]);
    expect(inA).toEqual({ table: 'table-a', client: { table: 'table-a' } });
    expect(inB).toEqual({ table: 'table-b', client: { table: 'table-b' } });
    expect(withConfig(a, () => clientOf())).toBe(inA.client);
    // Outside any stack: the process's own configuration, from its environment.
    expect(config().tableName).toBe(process.env.TABLE_NAME);
  });
});
