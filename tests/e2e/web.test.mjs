// tests/e2e/web.test.mjs: the game pages in a real browser (Debian's Chromium) on a phone-sized screen
// SPDX-License-Identifier: MIT
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { harness, toSteps } from './harness.mjs';

let admin, seatTokens;
const h = harness('web', {
  setup: (h) => { admin = h.cli('user', 'add', 'admin@example.org', '--admin', '--create').trim().split('\n').pop(); },
  ready,
});
const phone = (options) => h.phone(options);

async function ready() {
  const res = await fetch(`${h.base}/api/v1/games`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ game: 'counting-race', players: [
      { name: 'Ann', email: 'ann@example.org' }, { name: 'Bob', email: 'bob@example.org' }] }),
  });
  assert.equal(res.status, 201);
  seatTokens = (await res.json()).seats.map((s) => s.token);
}

test('a seat link signs in and the game page fits a phone', async () => {
  const ctx = await phone();
  const page = await ctx.newPage();
  const resp = await page.goto(`${h.base}/s/${seatTokens[0]}`);
  assert.equal(resp.status(), 200);
  assert.match(page.url(), /\/games\/\d+\?seat=0$/);
  await page.getByRole('heading', { name: 'Your move' }).waitFor();
  // nothing wider than the screen
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `page is ${width}px wide`);
  // every button and link in the main area is a big enough tap target
  const small = await page.evaluate(() => [...document.querySelectorAll('main button, main summary, nav a')]
    .filter((el) => el.offsetParent !== null)
    .map((el) => { const r = el.getBoundingClientRect(); return { t: el.textContent.trim(), h: r.height, w: r.width }; })
    .filter((b) => b.h < 44 || b.w < 44));
  assert.deepEqual(small, []);
  // every input has a label
  const unlabelled = await page.evaluate(() => [...document.querySelectorAll('input:not([type=hidden]), textarea, select')]
    .filter((el) => !el.labels || el.labels.length === 0).map((el) => el.name));
  assert.deepEqual(unlabelled, []);
  await page.screenshot({ path: join(h.dir, 'game.png'), fullPage: true });
  await ctx.close();
});

test('steps are taps: a button, then undo, then a typed turn', async () => {
  const ctx = await phone();
  const page = await ctx.newPage();
  await page.goto(`${h.base}/s/${seatTokens[0]}`);
  await page.getByRole('button', { name: 'add 3' }).click();
  await page.waitForLoadState();
  await page.getByRole('button', { name: 'Undo my last step' }).click();
  await page.waitForLoadState();
  await page.getByLabel('Or type steps, one per line').fill('add 2\nend');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.waitForLoadState();
  assert.equal(await page.getByRole('heading', { name: 'Your move' }).count(), 0);
  await page.getByRole('link', { name: 'The whole story' }).click();
  // newest first; Ann sees the step she took back, marked
  const steps = (await page.locator('ol.history li').allTextContents()).map((t) => t.split(' Ann ·')[0].trim());
  assert.deepEqual(steps, ['Ann: end', 'Ann: add 2', 'Ann took back a step', 'Ann: add 3 (taken back)']);
  await ctx.close();
});

test('an illegal step is shown next to the form, and works without JavaScript', async () => {
  const ctx = await phone({ javaScriptEnabled: false });
  const page = await ctx.newPage();
  await page.goto(`${h.base}/s/${seatTokens[1]}`);
  await page.getByLabel('Or type steps, one per line').fill('add 9');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const alert = page.getByRole('alert');
  await alert.waitFor();
  assert.match(await alert.textContent(), /Line 1.*add 9.*not 9/s);
  assert.equal(await page.getByLabel('Or type steps, one per line').inputValue(), 'add 9');
  await page.screenshot({ path: join(h.dir, 'error.png'), fullPage: true });
  await ctx.close();
});

test('pages stay small', async () => {
  const ctx = await phone();
  const page = await ctx.newPage();
  // every answer's body, redirects (no body) as 0
  const bodies = [];
  page.on('response', (r) => bodies.push(r.body().then((b) => b.length, () => 0)));
  await page.goto(`${h.base}/s/${seatTokens[0]}`);
  const bytes = (await Promise.all(bodies)).reduce((a, b) => a + b, 0);
  assert.ok(bytes < 100 * 1024, `game page weighs ${bytes} bytes`);
  await ctx.close();
});

test('the Alien Frontiers board is drawn and fits a phone', async () => {
  const res = await fetch(`${h.base}/api/v1/games`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ game: 'alien-frontiers', players: [
      { name: 'Ann', email: 'ann@example.org' }, { name: 'Bob', email: 'bob@example.org' },
      { name: 'Cy <script>', email: 'cy@example.org' }] }),
  });
  assert.equal(res.status, 201);
  const tokens = (await res.json()).seats.map((s) => s.token);
  const ctx = await phone();
  const page = await ctx.newPage();
  await page.goto(`${h.base}/s/${tokens[0]}`);
  const board = page.locator('section.board svg');
  await board.waitFor();
  const box = await board.boundingBox();
  assert.ok(box.width <= 390 && box.width > 300, `board is ${box.width}px wide`);
  const text = await board.textContent();
  for (const word of ['Lunar Mine', 'Colonist Hub', 'Burroughs Desert', 'Relic Ship', 'Ann (you)', 'Cy <script>'])
    assert.ok(text.includes(word), `board lacks ${word}`);
  await page.screenshot({ path: join(h.dir, 'af.png'), fullPage: true });
  // every step as a button too: at least one dock button (on a page of its own when the list is long)
  await toSteps(page);
  assert.ok(await page.locator('button[name=move][value^="dock "]').count() > 0);
  await ctx.close();
});
