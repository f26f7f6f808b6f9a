/**
 * Relations and responsibilities as a user of lists and retrieves sees them: the catalogue enforced, links
 * idempotent, the §2.4 counts exact after links, unlinks (also concurrent ones), deletes, restores, purges
 * and publishes, and each caller's own responsibilities, directly and through the roles they hold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNode, createOfType, defaultEnvironmentId } from './helpers/library.ts';
import { createUser, grant, PASSWORD } from './helpers/personas.ts';
import { type ApiClient, startTestStack, type TestStack } from './helpers/test-stack.ts';

let ctx: TestStack;
let api: ApiClient;
let admin: string;
let env: string;
let processSet: string;
let documentSet: string;

beforeAll(async () => {
  ctx = await startTestStack();
  api = ctx.api;
  admin = await api.login();
  env = await defaultEnvironmentId(api, admin);
  processSet = (await createOfType(api, admin, env, 'PROCESS_SET', 'Relations processes')).nodeId;
  documentSet = (await createOfType(api, admin, env, 'DOCUMENT_SET', 'Relations documents')).nodeId;
});
afterAll(() => ctx.close());

const newProcess = async (name = 'Process') =>
  (
    await createNode(api, admin, {
      '@type': 'Process',
      nodeType: 'PROCESS',
      name,
      parent: { nodeId: processSet },
    })
  ).nodeId as string;
const newDocument = async (name = 'Document') =>
  (
    await createNode(api, admin, {
      '@type': 'Document',
      nodeType: 'DOCUMENT',
      name,
      documentType: 'URL',
      url: 'https://example.com/doc',
      parent: { nodeId: documentSet },
    })
  ).nodeId as string;
const newOfType = async (nodeType: string) =>
  (await createOfType(api, admin, env, nodeType)).nodeId as string;

const link = (from: string, relation: string, to: string, token = admin) =>
  api.call('PUT', `/api/v1/items/${from}/relations/${relation}/${to}`, { token });
const unlink = (from: string, relation: string, to: string, token = admin) =>
  api.call('DELETE', `/api/v1/items/${from}/relations/${relation}/${to}`, { token });

/** The list element of `nodeId` in its parent's children list, as `token` sees it. */
async function element(parentId: string, nodeId: string, token = admin) {
  const page = await api.call('GET', `/api/v1/list/${parentId}?pageSize=1000`, { token });
  expect(page.status).toBe(200);
  const found = page.body.results.find((e: { nodeId: string }) => e.nodeId === nodeId);
  if (!found) throw new Error(`${nodeId} is not listed under ${parentId}`);
  return found;
}
const documentCount = async (processId: string) => (await element(processSet, processId)).documentCount;

async function relationsOf(nodeId: string, query = '', token = admin) {
  const all: any[] = [];
  let cursor: string | null = null;
  do {
    const page: any = await api.call(
      'GET',
      `/api/v1/items/${nodeId}/relations?pageSize=7${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { token },
    );
    expect(page.status).toBe(200);
    all.push(...page.body.results);
    cursor = page.body.nextCursor;
  } while (cursor);
  return all;
}

describe('linking', () => {
  it('links once however often it is asked, and lists the link from both ends', async () => {
    const process = await newProcess();
    const document = await newDocument();
    const first = await link(process, 'documentedBy', document);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      relation: 'documentedBy',
      direction: 'out',
      other: { id: document, nodeType: 'DOCUMENT', name: 'Document' },
    });
    const again = await link(process, 'documentedBy', document);
    expect(again.status).toBe(200);
    expect(again.body.createdAt).toBe(first.body.createdAt);
    expect(await documentCount(process)).toBe(1);

    expect(await relationsOf(process)).toEqual([first.body]);
    const fromDocument = await relationsOf(document);
    expect(fromDocument).toHaveLength(1);
    expect(fromDocument[0]).toMatchObject({
      relation: 'documentedBy',
      direction: 'in',
      other: { id: process },
    });
  });

  it('refuses what the catalogue does not allow, naming the parameter and the rule', async () => {
    const document = await newDocument();
    const control = await newOfType('CONTROL');
    const wrongSource = await link(document, 'mitigatedBy', control);
    expect(wrongSource.status).toBe(400);
    expect(wrongSource.headers.get('content-type')).toMatch(/problem\+json/);
    expect(wrongSource.body.errors[0]).toMatchObject({
      in: 'path',
      path: '$.relation',
      rule: 'relation_catalogue',
    });

    const process = await newProcess();
    const wrongTarget = await link(process, 'documentedBy', control);
    expect(wrongTarget.status).toBe(400);
    expect(wrongTarget.body.errors[0]).toMatchObject({ path: '$.targetId', rule: 'relation_catalogue' });

    expect((await link(process, 'documentedBy', process)).status).toBe(400);
    expect((await link(process, 'notARelation', document)).status).toBe(400);
    expect((await link(process, 'documentedBy', '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect(await relationsOf(process)).toEqual([]);
  });

  it('keeps every count of §2.4 from the relations, in lists and in the per-type retrieve', async () => {
    const process = await newProcess();
    const [docA, docB] = [await newDocument('A'), await newDocument('B')];
    const asset = await newOfType('ASSET');
    const otherAsset = await newOfType('ASSET');
    const resource = await newOfType('RESOURCE');
    const role = await newOfType('ROLE');
    const orgUnit = await newOfType('ORG_UNIT');
    for (const [relation, target] of [
      ['documentedBy', docA],
      ['documentedBy', docB],
      ['uses', asset],
      ['uses', resource],
      ['relatesTo', otherAsset],
      ['relatesTo', role],
      ['responsible', role],
      ['accountable', role],
      ['consulted', orgUnit],
    ] as const) {
      expect((await link(process, relation, target)).status).toBe(200);
    }
    const counts = {
      documentCount: 2,
      assetCount: 1,
      resourceCount: 1,
      relatedAssetCount: 1,
      relatedResourceCount: 0,
      // One role, whatever kinds it holds.
      roleCount: 1,
      relatedRoleCount: 1,
      orgUnitCount: 1,
      relatedOrgUnitCount: 0,
    };
    expect(await element(processSet, process)).toMatchObject(counts);
    const retrieved = await api.call('GET', `/api/v1/process/processes/${process}`, { token: admin });
    expect(retrieved.body.relationSummary).toMatchObject({ ...counts, relationCount: 8 });
    // Asking again for one kind of several answers that kind, unchanged.
    const again = await link(process, 'accountable', role);
    expect(again.body).toMatchObject({ relation: 'accountable', kinds: ['responsible', 'accountable'] });

    // Seen from the document: one relation with a process, which counts as none of the nine.
    const document = await api.call('GET', `/api/v1/document/documents/${docA}`, { token: admin });
    expect(document.body.relationSummary).toMatchObject({ relationCount: 1, documentCount: 0 });

    // Removing one kind keeps the role; removing the last removes it.
    expect((await unlink(process, 'responsible', role)).status).toBe(204);
    expect(await element(processSet, process)).toMatchObject({ roleCount: 1 });
    expect((await unlink(process, 'accountable', role)).status).toBe(204);
    expect(await element(processSet, process)).toMatchObject({ roleCount: 0, relatedRoleCount: 1 });
    expect((await unlink(process, 'accountable', role)).status).toBe(404);
  });

  it('counts exactly under concurrent links and unlinks of one object', async () => {
    const process = await newProcess();
    const documents = await Promise.all(Array.from({ length: 24 }, (_, i) => newDocument(`Doc ${i}`)));
    const [kept, dropped] = [documents.slice(0, 12), documents.slice(12)];
    const linked = await Promise.all(documents.map((d) => link(process, 'documentedBy', d)));
    expect(linked.map((r) => r.status)).toEqual(documents.map(() => 200));
    // Unlink half while linking the other half again (idempotent) and the first half once more.
    const mixed = await Promise.all([
      ...dropped.map((d) => unlink(process, 'documentedBy', d)),
      ...kept.map((d) => link(process, 'documentedBy', d)),
    ]);
    expect(mixed.map((r) => r.status).sort()).toEqual(
      [...kept.map(() => 200), ...dropped.map(() => 204)].sort(),
    );
    expect(await documentCount(process)).toBe(kept.length);
    const listed = await relationsOf(process);
    expect(listed.map((r) => r.other.id).sort()).toEqual([...kept].sort());
  });
});

describe('links beside updates', () => {
  it('an update racing the first links of an object succeeds and loses none of them', async () => {
    const documents = await Promise.all(Array.from({ length: 6 }, (_, i) => newDocument(`Beside ${i}`)));
    const processes = await Promise.all(documents.map((_, i) => newProcess(`Raced ${i}`)));
    // Each process: an update (quoting the version just read) and its first link, sent together.
    const answers = await Promise.all(
      processes.map(async (process, i) => {
        const current = await api.call('GET', `/api/v1/items/${process}?detail=true`, { token: admin });
        const { '@type': _type, ...fields } = current.body;
        const [updated, linked] = await Promise.all([
          api.call('PUT', `/api/v1/items/${process}`, {
            token: admin,
            body: { ...fields, '@type': 'Process', name: `Renamed ${i}` },
          }),
          link(process, 'documentedBy', documents[i] as string),
        ]);
        return [updated.status, linked.status];
      }),
    );
    expect(answers).toEqual(processes.map(() => [200, 200]));
    for (const [i, process] of processes.entries()) {
      expect(await element(processSet, process)).toMatchObject({ name: `Renamed ${i}`, documentCount: 1 });
    }
  });
});

describe('deletes, restores, purges and publishes', () => {
  it('a deleted document stops counting for every process that linked it, and counts again when restored', async () => {
    const document = await newDocument('Shared');
    const processes = await Promise.all([newProcess('P1'), newProcess('P2'), newProcess('P3')]);
    for (const p of processes) expect((await link(p, 'documentedBy', document)).status).toBe(200);
    for (const p of processes) expect(await documentCount(p)).toBe(1);

    expect((await api.call('DELETE', `/api/v1/items/${document}`, { token: admin, body: {} })).status).toBe(
      200,
    );
    for (const p of processes) {
      expect(await documentCount(p)).toBe(0);
      expect(await relationsOf(p)).toEqual([]);
    }
    // No new link to a deleted object.
    expect((await link(processes[0] as string, 'documentedBy', document)).status).toBe(404);

    expect((await api.call('POST', `/api/v1/items/${document}/restore`, { token: admin })).status).toBe(200);
    for (const p of processes) {
      expect(await documentCount(p)).toBe(1);
      expect((await relationsOf(p)).map((r) => r.other.id)).toEqual([document]);
    }

    expect((await api.call('DELETE', `/api/v1/items/${document}`, { token: admin, body: {} })).status).toBe(
      200,
    );
    expect((await api.call('DELETE', `/api/v1/trash/${document}`, { token: admin })).status).toBe(204);
    for (const p of processes) {
      expect(await documentCount(p)).toBe(0);
      expect(await relationsOf(p)).toEqual([]);
      // The link went with the purge: nothing left to remove.
      expect((await unlink(p, 'documentedBy', document)).status).toBe(404);
    }
  });

  it('a walk stopped inside a link of several kinds loses none when another kind is unlinked meanwhile', async () => {
    const process = await newProcess('Kinds unlinked during a walk');
    const role = await newOfType('ROLE');
    // Linked in an order other than the kinds' own: entries come in the kinds' fixed order.
    for (const kind of ['support', 'responsible', 'accountable'])
      expect((await link(process, kind, role)).status).toBe(200);
    const kinds = (rs: { relation: string }[]) => rs.map((r) => r.relation);
    expect(kinds(await relationsOf(process))).toEqual(['accountable', 'responsible', 'support']);
    const page = (cursor?: string) =>
      api.call(
        'GET',
        `/api/v1/items/${process}/relations?pageSize=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { token: admin },
      );
    const first = await page();
    expect(kinds(first.body.results)).toEqual(['accountable']);
    // The kind returned goes, and one before the next is linked: the walk goes on with what followed.
    expect((await unlink(process, 'accountable', role)).status).toBe(204);
    expect((await link(process, 'informed', role)).status).toBe(200);
    const walked: string[] = [];
    for (let cursor = first.body.nextCursor; cursor; ) {
      const next = await page(cursor);
      walked.push(...kinds(next.body.results));
      cursor = next.body.nextCursor;
    }
    expect(walked).toEqual(['responsible', 'support']);
  });

  it('a page of relations is filled past the links to deleted objects, never empty while more follow', async () => {
    const process = await newProcess('Mostly deleted links');
    const documents = (await Promise.all([1, 2, 3, 4].map((i) => newDocument(`Linked ${i}`)))).sort();
    for (const document of documents)
      expect((await link(process, 'documentedBy', document)).status).toBe(200);
    // The links are kept in the order of the other end's id: delete the first three.
    for (const document of documents.slice(0, 3)) {
      expect((await api.call('DELETE', `/api/v1/items/${document}`, { token: admin, body: {} })).status).toBe(
        200,
      );
    }
    const first = await api.call('GET', `/api/v1/items/${process}/relations?pageSize=1`, { token: admin });
    expect(first.status).toBe(200);
    expect(first.body.results.map((r: { other: { id: string } }) => r.other.id)).toEqual([documents[3]]);
  });

  it('pages of relations hold at most pageSize entries, a link of several kinds one entry per kind', async () => {
    const process = await newProcess('Several kinds');
    const role = await newOfType('ROLE');
    const document = await newDocument('Beside the role');
    for (const kind of ['responsible', 'accountable', 'consulted'])
      expect((await link(process, kind, role)).status).toBe(200);
    expect((await link(process, 'documentedBy', document)).status).toBe(200);
    const whole = await relationsOf(process);
    expect(whole).toHaveLength(4);
    for (const pageSize of [1, 2]) {
      const walked: any[] = [];
      const totals: number[] = [];
      let cursor: string | null = null;
      do {
        const page: any = await api.call(
          'GET',
          `/api/v1/items/${process}/relations?pageSize=${pageSize}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          { token: admin },
        );
        expect(page.status).toBe(200);
        expect(page.body.results.length).toBeLessThanOrEqual(pageSize);
        walked.push(...page.body.results);
        totals.push(page.body.totalRecords);
        cursor = page.body.nextCursor;
      } while (cursor);
      expect(walked, `pageSize ${pageSize}`).toEqual(whole);
      expect(totals).toEqual([...totals].sort((a, b) => a - b));
      expect(totals.at(-1)).toBe(4);
    }
  });

  it('deleting the linking process leaves the document counting nothing from it; a publish changes no count', async () => {
    const document = await newDocument();
    const process = await newProcess();
    const asset = await newOfType('ASSET');
    await link(process, 'documentedBy', document);
    await link(process, 'uses', asset);
    const current = await api.call('GET', `/api/v1/items/${process}`, { token: admin });
    const published = await api.call('POST', `/api/v1/items/${process}/publish`, {
      token: admin,
      body: { nodeVersionId: current.body.nodeVersionId },
    });
    expect(published.status).toBe(200);
    expect(await element(processSet, process)).toMatchObject({ documentCount: 1, assetCount: 1 });

    const before = await api.call('GET', `/api/v1/document/documents/${document}`, { token: admin });
    expect(before.body.relationSummary.relationCount).toBe(1);
    await api.call('DELETE', `/api/v1/items/${process}`, { token: admin, body: {} });
    const after = await api.call('GET', `/api/v1/document/documents/${document}`, { token: admin });
    expect(after.body.relationSummary.relationCount).toBe(0);
    expect(await relationsOf(document)).toEqual([]);
  });
});

describe('responsibilities', () => {
  it('shows the caller their own, directly and through the roles they hold', async () => {
    const process = await newProcess('Order to cash');
    const task = (
      await createNode(api, admin, {
        '@type': 'TaskNode',
        nodeType: 'TASK',
        name: 'Ship',
        parent: { nodeId: process },
      })
    ).nodeId as string;
    const role = await newOfType('ROLE');
    const holder = await createUser(api, admin, `holder-${Date.now()}`);
    const bystander = await createUser(api, admin, `bystander-${Date.now()}`);
    for (const user of [holder, bystander]) await grant(api, admin, env, user, 'READER');
    const holderToken = await api.login((await userName(holder)) as string, PASSWORD);
    const bystanderToken = await api.login((await userName(bystander)) as string, PASSWORD);

    expect((await link(role, 'heldBy', holder)).status).toBe(200);
    expect((await link(process, 'responsible', role)).status).toBe(200);
    expect((await link(task, 'accountable', holder)).status).toBe(200);

    const mine = (await element(processSet, process, holderToken)).responsibilities;
    expect(mine).toEqual({
      informed: false,
      accountable: false,
      verifier: false,
      responsible: true,
      signatory: false,
      consulted: false,
      support: false,
    });
    expect((await element(process, task, holderToken)).responsibilities.accountable).toBe(true);
    expect(
      Object.values((await element(processSet, process, bystanderToken)).responsibilities),
    ).not.toContain(true);
    const retrieved = await api.call('GET', `/api/v1/process/processes/${process}`, { token: holderToken });
    expect(retrieved.body.relationSummary.responsibilities.responsible).toBe(true);

    // The role deleted: what came through it is gone; the direct one stays.
    await api.call('DELETE', `/api/v1/items/${role}`, { token: admin, body: {} });
    expect((await element(processSet, process, holderToken)).responsibilities.responsible).toBe(false);
    expect((await element(process, task, holderToken)).responsibilities.accountable).toBe(true);
  });
});

describe('permissions', () => {
  it('needs edit to link, read on the other end, and lists only readable ends', async () => {
    const process = await newProcess();
    const document = await newDocument();
    const reader = await createUser(api, admin, `reader-${Date.now()}`);
    await grant(api, admin, env, reader, 'READER');
    const readerToken = await api.login((await userName(reader)) as string, PASSWORD);
    expect((await link(process, 'documentedBy', document, readerToken)).status).toBe(403);

    // A document in another environment: the editor of this one cannot see it, so cannot link it.
    const otherEnv = (
      await createNode(api, admin, {
        '@type': 'NodeElement',
        nodeType: 'ENVIRONMENT',
        name: `Other ${Date.now()}`,
      })
    ).nodeId as string;
    const hidden = (await createOfType(api, admin, otherEnv, 'DOCUMENT')).nodeId as string;
    const editor = await createUser(api, admin, `editor-${Date.now()}`);
    await grant(api, admin, env, editor, 'EDITOR');
    const editorToken = await api.login((await userName(editor)) as string, PASSWORD);
    expect((await link(process, 'documentedBy', hidden, editorToken)).status).toBe(404);
    expect((await link(process, 'documentedBy', document, editorToken)).status).toBe(200);

    // The administrator links the hidden one: it counts, but the editor's list of relations leaves it out.
    expect((await link(process, 'documentedBy', hidden)).status).toBe(200);
    expect(await documentCount(process)).toBe(2);
    expect((await relationsOf(process, '', editorToken)).map((r) => r.other.id)).toEqual([document]);
    expect((await api.call('GET', `/api/v1/items/${hidden}/relations`, { token: editorToken })).status).toBe(
      404,
    );
  });
  it("walks a reader's relations by cursor without any cursor naming an end the reader may not read", async () => {
    const otherEnv = (
      await createNode(api, admin, {
        '@type': 'NodeElement',
        nodeType: 'ENVIRONMENT',
        name: `Hidden ${Date.now()}`,
      })
    ).nodeId as string;
    const hiddenSet = (await createOfType(api, admin, otherEnv, 'DOCUMENT_SET', 'Hidden documents')).nodeId;
    const hiddenDocument = async (i: number) =>
      (
        await createNode(api, admin, {
          '@type': 'Document',
          nodeType: 'DOCUMENT',
          name: `Hidden ${i}`,
          documentType: 'URL',
          url: 'https://example.com/hidden',
          parent: { nodeId: hiddenSet },
        })
      ).nodeId as string;
    const anchor = await newDocument('Anchor');
    const visible = [await newDocument('Visible 1'), await newDocument('Visible 2')];
    // More hidden ends than five reads of a page of one take: a page with nothing yet reads on.
    const hidden: string[] = [];
    for (let i = 0; i < 11; i++) hidden.push(await hiddenDocument(i));
    for (const other of [...visible, ...hidden]) {
      expect((await link(anchor, 'relatesTo', other)).status).toBe(200);
      expect((await link(other, 'relatesTo', anchor)).status).toBe(200);
    }
    const reader = await createUser(api, admin, `walker-${Date.now()}`);
    await grant(api, admin, env, reader, 'READER');
    const readerToken = await api.login((await userName(reader)) as string, PASSWORD);

    for (const direction of ['out', 'in']) {
      for (const pageSize of [1, 2]) {
        const walked: string[] = [];
        let cursor: string | null = null;
        let last: any;
        do {
          last = await api.call(
            'GET',
            `/api/v1/items/${anchor}/relations?direction=${direction}&pageSize=${pageSize}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
            { token: readerToken },
          );
          expect(last.status).toBe(200);
          walked.push(...last.body.results.map((r: { other: { id: string } }) => r.other.id));
          cursor = last.body.nextCursor;
          if (cursor) {
            // A page is empty only at the end, and its cursor names nothing hidden (decoded, as anyone can).
            expect(last.body.results.length).toBeGreaterThan(0);
            const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
            for (const id of hidden) expect(decoded, `${direction}, pageSize ${pageSize}`).not.toContain(id);
          }
        } while (cursor);
        expect(walked, `${direction}, pageSize ${pageSize}`).toEqual([...visible].sort());
        expect(last.body).toMatchObject({ totalRecords: 2, totalRecordsExact: true });
      }
    }
  });
});

async function userName(principalId: string): Promise<string | undefined> {
  const users = await api.call('GET', '/api/v1/admin/users?pageSize=1000', { token: admin });
  return users.body.results.find((u: { principalId: string }) => u.principalId === principalId)?.username;
}

describe('list filters', () => {
  it('lists the objects related to one object, narrowed by relation and walked by cursor', async () => {
    const risk = await newOfType('RISK');
    const controls = await Promise.all([1, 2, 3].map(() => newOfType('CONTROL')));
    const process = await newProcess('Affected');
    for (const control of controls) expect((await link(risk, 'mitigatedBy', control)).status).toBe(200);
    expect((await link(risk, 'affects', process)).status).toBe(200);

    const all = await api.call('GET', `/api/v1/list?relatedTo=${risk}&pageSize=1000`, { token: admin });
    expect(all.status).toBe(200);
    expect(all.body.totalRecords).toBe(4);
    expect(all.body.totalRecordsExact).toBe(true);
    expect(all.body.results.map((e: { nodeId: string }) => e.nodeId).sort()).toEqual(
      [...controls, process].sort(),
    );

    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await api.call(
        'GET',
        `/api/v1/list?relatedTo=${risk}&relation=mitigatedBy&pageSize=2${cursor ? `&cursor=${cursor}` : ''}`,
        { token: admin },
      );
      expect(page.status).toBe(200);
      expect(page.body.totalRecords).toBe(3);
      walked.push(...page.body.results.map((e: { nodeId: string }) => e.nodeId));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(walked).toEqual([...controls].sort());

    // From the other end, the risk is related to each control; a type filter applies as on any list.
    const fromControl = await api.call('GET', `/api/v1/list?relatedTo=${controls[0]}&nodeType=RISK`, {
      token: admin,
    });
    expect(fromControl.body.results.map((e: { nodeId: string }) => e.nodeId)).toEqual([risk]);
    const refused = await api.call('GET', `/api/v1/list?relation=mitigatedBy`, { token: admin });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ path: '$.relation' });
    const forged = await api.call('GET', `/api/v1/list?relatedTo=${risk}&cursor=bm90LWEtY3Vyc29y`, {
      token: admin,
    });
    expect(forged.status).toBe(400);
  });

  it('links only a user who can read the object; any other is answered as an unknown one', async () => {
    const role = await newOfType('ROLE');
    const editorId = await createUser(api, admin, `linker-${Date.now()}`);
    await grant(api, admin, env, editorId, 'EDITOR');
    const editor = await api.login((await userName(editorId)) as string, PASSWORD);
    const elsewhere = await api.call('POST', '/api/v1/items', {
      token: admin,
      body: { '@type': 'NodeElement', nodeType: 'ENVIRONMENT', name: `Elsewhere ${Date.now()}` },
    });
    const outsider = await createUser(api, admin, `outsider-${Date.now()}`);
    await grant(api, admin, elsewhere.body.nodeId, outsider, 'READER');
    const disabled = await createUser(api, admin, `disabled-${Date.now()}`);
    await grant(api, admin, env, disabled, 'READER');
    await api.call('PATCH', `/api/v1/admin/users/${disabled}`, {
      token: admin,
      body: { status: 'DISABLED' },
    });
    const unknown = '22222222-2222-4222-8222-222222222222';

    const answers = async (userId: string) => {
      const answer = await link(role, 'heldBy', userId, editor);
      return [answer.status, answer.body.code, answer.body.detail.replace(userId, '<id>')];
    };
    const asUnknown = await answers(unknown);
    expect(asUnknown.slice(0, 2)).toEqual([404, 'USER_NOT_FOUND']);
    expect(await answers(outsider)).toEqual(asUnknown);
    expect(await answers(disabled)).toEqual(asUnknown);
    // Unlinking a user never linked is the same as unlinking one who does not exist.
    const unlinked = async (userId: string) => {
      const answer = await unlink(role, 'heldBy', userId, editor);
      return [answer.status, answer.body.code];
    };
    expect(await unlinked(unknown)).toEqual([404, 'RELATION_NOT_FOUND']);
    expect(await unlinked(outsider)).toEqual([404, 'RELATION_NOT_FOUND']);
    expect((await relationsOf(role)).filter((r) => r.relation === 'heldBy')).toEqual([]);
    // A reader of the object is linked, and unlinked, whoever links it.
    const reader = await createUser(api, admin, `reader-${Date.now()}`);
    await grant(api, admin, env, reader, 'READER');
    expect((await link(role, 'heldBy', reader, editor)).status).toBe(200);
    expect((await unlink(role, 'heldBy', reader, editor)).status).toBe(204);
  });

  it('lists the objects where the caller holds a responsibility, any or one kind', async () => {
    const username = `dashboard-${Date.now()}`;
    const user = await createUser(api, admin, username);
    await grant(api, admin, env, user, 'READER');
    const token = await api.login(username, PASSWORD);
    const role = await newOfType('ROLE');
    const [p1, p2, p3] = [await newProcess('R1'), await newProcess('R2'), await newProcess('R3')];
    await link(role, 'heldBy', user);
    await link(p1, 'responsible', role);
    await link(p2, 'informed', user);
    await link(p3, 'informed', role);

    const ids = async (query: string) =>
      (await api.call('GET', `/api/v1/process/list?${query}`, { token })).body.results
        .map((e: { nodeId: string }) => e.nodeId)
        .sort();
    expect(await ids('responsibility=any')).toEqual([p1, p2, p3].sort());
    expect(await ids('responsibility=informed')).toEqual([p2, p3].sort());
    expect(await ids('responsibility=responsible')).toEqual([p1]);
    expect(await ids('responsibility=signatory')).toEqual([]);
    // With relatedTo, both narrow: related to the role and held by the caller.
    expect(await ids(`relatedTo=${role}&responsibility=any`)).toEqual([p1, p3].sort());
    expect(await ids(`relatedTo=${role}&responsibility=responsible`)).toEqual([p1]);
    await unlink(role, 'heldBy', user);
    expect(await ids('responsibility=any')).toEqual([p2]);
    expect(await ids(`relatedTo=${role}&responsibility=any`)).toEqual([]);
  });
});
