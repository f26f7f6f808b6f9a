/**
 * Swagger UI in a real browser (Debian's headless Chromium, driven by playwright-core): it renders
 * the tags, and "Try it out" on GET /list with a bearer token answers 200. `.ci/run` installs
 * Chromium when it is missing; on a machine without it this file says so and runs nothing.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../integration/helpers/test-stack.ts';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.warn(`${CHROMIUM} is missing (apt-get install -y chromium): the browser test does not run.`);

describe.runIf(hasChromium)('Swagger UI in Chromium', () => {
  let ctx: TestStack;
  let browser: Browser;

  beforeAll(async () => {
    ctx = await startTestStack();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      // Playwright gives each launch a new empty profile; background networking is off (closed network).
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
  });

  it('shows the tags and runs GET /list with a bearer token: 200', async () => {
    const token = await ctx.api.login();
    const page = await browser.newPage();
    const failedRequests: string[] = [];
    page.on('requestfailed', (request) => failedRequests.push(request.url()));
    await page.goto(`${ctx.stack.url}/api/v1/swagger/`);

    const tagHeadings = page.locator('h3.opblock-tag');
    await tagHeadings.first().waitFor();
    const tags = await tagHeadings.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-tag')));
    expect(tags).toEqual(expect.arrayContaining(['Common', 'User']));

    await page.locator('button.authorize').first().click();
    const bearer = page.locator('.auth-container').filter({ hasText: 'bearerAuth' });
    await bearer.locator('input').fill(token);
    await bearer.locator('button.authorize').click();
    await page.locator('button.btn-done').first().click();

    const listOperation = page.locator('#operations-Common-listNodes');
    await listOperation.locator('.opblock-summary').click();
    await listOperation.locator('button.try-out__btn').click();
    await listOperation.locator('tr[data-param-name="nodeType"] input').fill('ENVIRONMENT');
    await listOperation.locator('button.execute').click();

    const status = listOperation.locator('.live-responses-table tr.response .response-col_status').first();
    await status.waitFor();
    expect((await status.textContent())?.trim()).toBe('200');
    await expect
      .poll(() => listOperation.locator('.live-responses-table').textContent())
      .toContain('"totalRecords": 1');
    expect(failedRequests).toEqual([]);
  });
});
