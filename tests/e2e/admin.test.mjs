// tests/e2e/admin.test.mjs: the admin console's timeline and step view in a real browser on a phone-sized screen
// SPDX-License-Identifier: MIT
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { harness } from './harness.mjs';

let gameId, adminToken;
const h = harness('admin', {
  setup: (h) => {
    adminToken = h.cli('user', 'add', 'admin@example.org', '--name', 'Ada', '--admin', '--create').trim().split('\n').pop();
  },
  ready,
});
const phone = () => h.phone();
const adminPage = (ctx) => h.signIn(ctx, 'admin@example.org');

async function api(method, path, token, body) {
  const res = await fetch(`${h.base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: await res.json() };
}

async function ready() {
  const created = await api('POST', '/api/v1/games', adminToken, { game: 'counting-race', players: [
    { name: 'Ann', email: 'ann@example.org' }, { name: 'Bob <b>', email: 'bob@example.org' }] });
  assert.equal(created.status, 201);
  gameId = created.json.id;
  const [ann, bob] = created.json.seats.map((s) => s.token);
  for (const [tok, moves] of [[ann, ['add 2', 'end']], [bob, ['add 3', 'end']], [ann, ['add 1']]]) {
    const r = await api('POST', `/api/v1/games/${gameId}/moves`, tok, { moves });
    assert.equal(r.status, 200);
  }
  const rb = await api('POST', `/api/v1/admin/games/${gameId}/rollback`, adminToken, { to: 2, reason: 'misclick' });
  assert.equal(rb.status, 200);
}

async function fitsThePhone(page, what) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `${what} is ${width}px wide`);
  const unlabelled = await page.evaluate(() => [...document.querySelectorAll('input:not([type=hidden]), textarea, select')]
    .filter((el) => !el.labels || el.labels.length === 0).map((el) => el.name));
  assert.deepEqual(unlabelled, [], `${what} has inputs without labels`);
}

test('the timeline and the step view work on a phone', async () => {
  const ctx = await phone();
  const page = await adminPage(ctx);
  await page.getByRole('link', { name: 'Admin' }).click();
  await page.locator(`a.card[href="/admin/games/${gameId}"]`).click();
  await page.getByRole('heading', { name: 'Timeline' }).waitFor();
  await fitsThePhone(page, 'the game page');
  const steps = await page.locator('ol.timeline li code').allTextContents();
  assert.deepEqual(steps, ['add 2', 'end', 'add 3', 'end', 'add 1', 'rollback to 2']);
  // the player's name is escaped, not markup
  assert.ok((await page.locator('ol.timeline').textContent()).includes('Bob <b>'));
  await page.screenshot({ path: join(h.dir, 'admin-game.png'), fullPage: true });

  // open step 3, then step back and forward
  await page.locator('ol.timeline a', { hasText: 'add 3' }).click();
  await page.getByText('Step 3 of 6').waitFor();
  await fitsThePhone(page, 'the step page');
  assert.match(await page.locator('.step-info').textContent(), /Bob <b>.*add 3/s);
  await page.getByRole('link', { name: 'Step back' }).click();
  await page.getByText('Step 2 of 6').waitFor();
  await page.getByRole('link', { name: 'Step forward' }).click();
  await page.getByText('Step 3 of 6').waitFor();
  // the nav buttons are big enough to tap
  const small = await page.evaluate(() => [...document.querySelectorAll('nav.stepper a, main button')]
    .filter((el) => el.offsetParent !== null)
    .map((el) => { const r = el.getBoundingClientRect(); return { t: el.textContent.trim(), h: r.height, w: r.width }; })
    .filter((b) => b.h < 44 || b.w < 44));
  assert.deepEqual(small, []);

  // what changed since the set-up
  await page.getByLabel('Other step (0 is the set-up)').fill('0');
  await page.getByRole('button', { name: 'Show what changed' }).click();
  await page.getByRole('heading', { name: 'From step 0 to step 3' }).waitFor();
  const paths = await page.locator('ul.diff-list code.path').allTextContents();
  for (const p of ['turn', 'total[0]', 'total[1]']) assert.ok(paths.includes(p), `the diff lacks ${p}: ${paths}`);
  await fitsThePhone(page, 'the diff');
  await page.screenshot({ path: join(h.dir, 'admin-step.png'), fullPage: true });
  await ctx.close();
});

test('a rollback from the phone asks for a reason and is audited', async () => {
  const ctx = await phone();
  const page = await adminPage(ctx);
  await page.goto(`${h.base}/admin/games/${gameId}`);
  await page.getByText('Roll back to an earlier step').click();
  await page.getByLabel('Back to step (0 is the set-up)').fill('1');
  await page.getByLabel('Reason (the players read it)').fill('Ann asked');
  await page.getByRole('button', { name: 'Roll back', exact: true }).click();
  await page.getByText('Rolled back.').waitFor();
  assert.equal(await page.locator('ol.timeline li code').last().textContent(), 'rollback to 1');
  await page.getByRole('link', { name: 'Audit log' }).first().click();
  assert.match(await page.locator('ol.audit').textContent(), /Why: Ann asked/);
  await ctx.close();
});
