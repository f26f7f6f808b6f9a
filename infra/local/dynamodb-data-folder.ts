/**
 * Where the embedded DynamoDB keeps its data: the journal `dynamodb.journal` in the data folder
 * (dynalite-store.ts). A data folder from before the journal holds dynalite's LevelDB under `dynamodb/`:
 * the first start imports it (same keys, same values) and moves it aside as `dynamodb.imported/`, so an
 * upgrade keeps what a developer had.
 */
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { Level } from 'level';
import { type DynaliteStore, openDynaliteStore } from './dynalite-store.ts';

const LEVELDB_FOLDER = 'dynamodb';

/** The sub-database a LevelDB key of dynalite's belongs to, and the key within it. */
function splitLevelKey(prefixed: string): { sub: string; key: string } | undefined {
  // Index sub-databases are named index-<type>~<table>~<index>; the others <kind>-<table> or "table".
  const parts = prefixed.split('~');
  const subParts = parts[0]?.startsWith('index-') ? 3 : 1;
  if (parts.length <= subParts) return undefined;
  return { sub: parts.slice(0, subParts).join('~'), key: parts.slice(subParts).join('~') };
}

async function importLevelDb(folder: string, store: DynaliteStore): Promise<number> {
  const db = new Level<string, unknown>(folder, { valueEncoding: 'json' });
  await db.open();
  let imported = 0;
  try {
    for await (const [prefixed, value] of db.iterator()) {
      const place = splitLevelKey(prefixed);
      // Index entries are rebuilt from the items when the store opens.
      if (!place || place.sub.startsWith('index-')) continue;
      const target =
        place.sub === 'table'
          ? store.tableDb
          : place.sub.startsWith('item-')
            ? store.getItemDb(place.sub.slice('item-'.length))
            : place.sub.startsWith('tag-')
              ? store.getTagDb(place.sub.slice('tag-'.length))
              : undefined;
      if (!target) continue;
      target.set(place.key, value as Record<string, unknown>);
      imported++;
    }
  } finally {
    await db.close();
  }
  return imported;
}

export async function openLocalDynamoDbStore(
  dataDir: string,
  timings: { createTableMs?: number } = {},
): Promise<DynaliteStore> {
  const journalPath = join(dataDir, 'dynamodb.journal');
  const levelFolder = join(dataDir, LEVELDB_FOLDER);
  if (existsSync(journalPath) || !existsSync(join(levelFolder, 'CURRENT'))) {
    return openDynaliteStore({ journalPath, ...timings });
  }
  const store = openDynaliteStore({ journalPath, ...timings });
  const imported = await importLevelDb(levelFolder, store);
  store.close();
  renameSync(levelFolder, join(dataDir, `${LEVELDB_FOLDER}.imported`));
  console.log(
    `Imported ${imported} items of the embedded DynamoDB from ${levelFolder} (kept as ${LEVELDB_FOLDER}.imported).`,
  );
  // Opened again, so the index entries are rebuilt from what was imported.
  return openDynaliteStore({ journalPath, ...timings });
}
