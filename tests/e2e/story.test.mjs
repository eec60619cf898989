// tests/e2e/story.test.mjs: the story of a game on a phone: since your last turn, the whole story, the replay
// SPDX-License-Identifier: MIT
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { harness } from './harness.mjs';

let admin, gameId, seatTokens;
const h = harness('story', {
  setup: (h) => { admin = h.cli('user', 'add', 'admin@example.org', '--admin', '--create').trim().split('\n').pop(); },
  ready,
});
const phone = (options) => h.phone(options);

async function play(seat, moves) {
  const res = await fetch(`${h.base}/api/v1/games/${gameId}/moves`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${seatTokens[seat]}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ moves }),
  });
  assert.equal(res.status, 200, await res.text());
}

async function ready() {
  const res = await fetch(`${h.base}/api/v1/games`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ game: 'counting-race', options: { target: 40 }, players: [
      { name: 'Ann', email: 'ann@example.org' }, { name: 'Bob', email: 'bob@example.org' }] }),
  });
  assert.equal(res.status, 201);
  const created = await res.json();
  gameId = created.id;
  seatTokens = created.seats.map((s) => s.token);
}

test('since your last turn is at the top of the page, in words, newest first', async () => {
  await play(0, ['add 2', 'end']);
  await play(1, ['add 1', 'end']);
  await play(0, ['add 3', 'add 1', 'undo', 'add 2', 'end']);
  const ctx = await phone();
  const page = await ctx.newPage();
  await page.goto(`${h.base}/s/${seatTokens[1]}`);
  const story = page.getByRole('region', { name: 'Since your last turn' });
  await story.waitFor();
  // within the first screen of a 390x844 phone
  const box = await story.boundingBox();
  assert.ok(box && box.y < 844, `the story starts at ${box && box.y}px`);
  // Ann's turn, newest first; what she took back is not Bob's business
  const lines = (await story.locator('li').allTextContents()).map((t) => t.split(' · ')[0].trim());
  assert.deepEqual(lines, ['Ann: end', 'Ann: add 2', 'Ann: add 3']);
  // each with when and how
  assert.match(await story.locator('li').first().textContent(), /· (just now|.+ ago) · by the API/);
  // nothing wider than the screen
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `page is ${width}px wide`);
  await page.screenshot({ path: join(h.dir, 'since.png'), fullPage: false });

  // the whole story is one tap away, newest first
  await story.getByRole('link', { name: 'The whole story' }).click();
  const all = (await page.locator('ol.history li').allTextContents()).map((t) => t.split(' Ann ·')[0].split(' Bob ·')[0].trim());
  assert.deepEqual(all, ['Ann: end', 'Ann: add 2', 'Ann: add 3', 'Bob: end', 'Bob: add 1', 'Ann: end', 'Ann: add 2']);
  await ctx.close();
});

test('the replay walks the steps Bob may see, with first, back, forward and last', async () => {
  const ctx = await phone();
  const page = await ctx.newPage();
  await page.goto(`${h.base}/s/${seatTokens[1]}`);
  await page.getByRole('link', { name: 'Replay' }).click();
  const status = page.locator('#replay-step');
  assert.match(await status.textContent(), /Step 7 of 7: Ann: end/);
  await page.getByRole('link', { name: 'Back', exact: true }).click();
  assert.match(await status.textContent(), /Step 6 of 7: Ann: add 2/);
  // the step Ann took back is skipped
  await page.getByRole('link', { name: 'Back', exact: true }).click();
  assert.match(await status.textContent(), /Step 5 of 7: Ann: add 3/);
  await page.getByRole('link', { name: 'First', exact: true }).click();
  assert.match(await status.textContent(), /The set-up/);
  await page.getByRole('link', { name: 'Forward', exact: true }).click();
  assert.match(await status.textContent(), /Step 1 of 7: Ann: add 2/);
  await page.getByRole('link', { name: 'Last', exact: true }).click();
  assert.match(await status.textContent(), /Step 7 of 7/);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `page is ${width}px wide`);
  await ctx.close();
});
