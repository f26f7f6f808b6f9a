import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfType, defaultEnvironmentId } from '../integration/helpers/library.ts';
import { startTestStack, type TestStack } from '../integration/helpers/test-stack.ts';
import { readReference } from '../unit/bpmn/bpmn-test-support.ts';
import { hasChromium, launchChromium } from './chromium.ts';

const bpmnJs = dirname(createRequire(import.meta.url).resolve('bpmn-js/package.json'));
const VIEWER = join(bpmnJs, 'dist/bpmn-viewer.production.min.js');

describe.runIf(hasChromium)('bpmn-js renders exported processes', () => {
  let ctx: TestStack;
  let browser: Browser;
  let token: string;
  let environmentId: string;

  beforeAll(async () => {
    ctx = await startTestStack();
    token = await ctx.api.login();
    environmentId = await defaultEnvironmentId(ctx.api, token);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
  });

  /** Opens `xml` in bpmn-js: its warnings, and the names drawn on the canvas. */
  async function render(
    xml: string,
  ): Promise<{ warnings: string[]; drawnNames: string[]; errors: string[] }> {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.setContent(
      '<html><body><div id="canvas" style="width:1600px;height:1000px"></div></body></html>',
    );
    await page.addScriptTag({ path: VIEWER });
    const result = await page.evaluate(async (diagram) => {
      const Viewer = (globalThis as unknown as { BpmnJS: new (o: object) => any }).BpmnJS;
      const viewer = new Viewer({ container: '#canvas' });
      const { warnings } = await viewer.importXML(diagram);
      const drawnNames = viewer
        .get('elementRegistry')
        .getAll()
        .filter((element: any) => /Task$/.test(element.type))
        .map((element: any) => element.businessObject.name);
      return { warnings: warnings.map((w: { message: string }) => w.message), drawnNames };
    }, xml);
    await page.close();
    return { ...result, errors };
  }

  const exported = async (processId: string) =>
    (await ctx.api.call('GET', `/api/v1/process/processes/${processId}/bpmn`, { token })).text;

  it('a process built through the API', async () => {
    const process = await createOfType(ctx.api, token, environmentId, 'PROCESS', 'Drawn');
    const tasks = ['Receive order', 'Check stock', 'Ship'].map((name, i) => ({
      '@type': 'TaskNode',
      nodeType: 'TASK',
      name,
      sequenceNumber: i + 1,
      topLeftX: 100 + i * 180,
      topLeftY: 120,
      width: 120,
      height: 80,
      editId: `t${i}`,
      ...(i < 2
        ? {
            edges: [
              {
                sourceNodeId: `t${i}`,
                sourcePortPoint: { x: 220 + i * 180, y: 160 },
                targetNodeId: `t${i + 1}`,
                targetPortPoint: { x: 280 + i * 180, y: 160 },
              },
            ],
          }
        : {}),
    }));
    const added = await ctx.api.call('POST', `/api/v1/process/nodes?process=${process.nodeId}`, {
      token,
      body: tasks,
    });
    expect(added.status).toBe(200);
    const { warnings, drawnNames, errors } = await render(await exported(process.nodeId));
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
    expect(drawnNames.sort()).toEqual(['Check stock', 'Receive order', 'Ship']);
  });

  it('a MIWG model with pools and lanes, imported and edited', async () => {
    const process = await createOfType(ctx.api, token, environmentId, 'PROCESS', 'A.4.1');
    const imported = await ctx.api.call('POST', `/api/v1/process/processes/${process.nodeId}/bpmn`, {
      token,
      rawBody: readReference('A.4.1.bpmn'),
      headers: { 'content-type': 'application/xml' },
    });
    expect(imported.status).toBe(200);
    const [first, second] = imported.body.tasks;
    await ctx.api.call('DELETE', `/api/v1/items/${second.nodeId}`, { token });
    await ctx.api.call('POST', `/api/v1/process/nodes?process=${process.nodeId}`, {
      token,
      body: [
        {
          '@type': 'TaskNode',
          nodeType: 'TASK',
          name: 'Added later',
          sequenceNumber: 99,
          topLeftX: 400,
          topLeftY: 600,
          width: 100,
          height: 80,
          editId: 'new',
          edges: [
            {
              sourceNodeId: first.nodeId,
              sourcePortPoint: { x: 0, y: 0 },
              targetNodeId: 'new',
              targetPortPoint: { x: 400, y: 640 },
            },
          ],
        },
      ],
    });
    const original = await render(readReference('A.4.1.bpmn'));
    const { warnings, drawnNames, errors } = await render(await exported(process.nodeId));
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
    expect(drawnNames).toContain('Added later');
    expect(drawnNames).not.toContain(second.name);
    // One task of the file deleted, one added; the tasks inside its sub-process are drawn as they were.
    expect(drawnNames).toHaveLength(original.drawnNames.length);
  });
});
