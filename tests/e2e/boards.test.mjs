// tests/e2e/boards.test.mjs: the Space Station Phoenix and Starship Merchants boards on a phone-sized screen
// SPDX-License-Identifier: MIT
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { harness, shots, toSteps } from './harness.mjs';

const h = harness('boards');
const phone = () => h.phone();

// A game with a fixed seed (through the admin command line), so every run plays the same positions.
function newGame(game, n, seed = 1) {
  const names = ['Ann', 'Bob <b>&', 'Cy', 'Di'];
  return h.newGame(game, names.slice(0, n).map((name, i) => `${name} <${game}-${seed}-${i}@example.org>`), seed);
}

const api = async (g, seat, path, body) => {
  const res = await fetch(`${h.base}/api/v1/games/${g.id}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { Authorization: `Bearer ${g.tokens[seat]}`, 'Content-Type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: await res.json() };
};

// Play steps through the API by a fixed walk over the legal lists; stop early when stop(moves) says so.
async function advance(g, steps, stop = () => false) {
  let seen = { size: 0 };
  for (let i = 0; i < steps; i++) {
    let acted = false;
    for (let s = 0; s < g.tokens.length && !acted; s++) {
      const { json } = await api(g, s, '/legal');
      if (!json.moves || !json.moves.length) continue;
      if (json.moves.length > seen.size) seen = { size: json.moves.length, seat: s };
      if (stop(json.moves)) return { seat: s, moves: json.moves, seen };
      const move = json.moves[(i * 7 + 3) % json.moves.length];
      const res = await api(g, s, '/moves', { moves: [move] });
      assert.equal(res.status, 200, `${move}: ${JSON.stringify(res.json)}`);
      acted = true;
    }
    if (!acted) break;
  }
  return { seen };
}

// Open a seat's page on the phone: the board fits, the page is small, and the labels are there.
async function openBoard(g, seat, words, shot) {
  const ctx = await phone();
  const page = await ctx.newPage();
  // every answer's body, redirects (no body) as 0
  const bodies = [];
  page.on('response', (r) => bodies.push(r.body().then((b) => b.length, () => 0)));
  await page.goto(`${h.base}/s/${g.tokens[seat]}`);
  const bytes = (await Promise.all(bodies)).reduce((a, b) => a + b, 0);
  const board = page.locator('section.board svg');
  await board.waitFor();
  const box = await board.boundingBox();
  assert.ok(box.width <= 390 && box.width > 300, `board is ${box.width}px wide`);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `page is ${width}px wide`);
  // no text of the board runs past its right edge
  const over = await page.evaluate(() => {
    const svg = document.querySelector('section.board svg');
    const right = svg.getBoundingClientRect().right + 0.5;
    return [...svg.querySelectorAll('text')].filter((t) => t.getBoundingClientRect().right > right).map((t) => t.textContent);
  });
  assert.deepEqual(over, []);
  const text = await board.textContent();
  for (const word of words) assert.ok(text.includes(word), `board lacks ${word}`);
  assert.ok(bytes < 100 * 1024, `game page weighs ${bytes} bytes`);
  await page.screenshot({ path: join(shots, `${shot}.png`), fullPage: true });
  return { ctx, page };
}

// Tap a step button (opening its group first) and check the step was stored as its canonical text.
async function tap(g, page, value) {
  const button = page.locator(`button[name=move][value="${value}"]`);
  const details = button.locator('xpath=ancestor::details');
  if (!(await details.evaluate((d) => d.open))) await details.locator('summary').click();
  await button.click();
  await page.waitForLoadState();
  const { json } = await api(g, 0, '/moves');
  assert.equal(json.moves[json.moves.length - 1].text, value);
}

test('the Space Station Phoenix board fits a phone, and steps are taps', async () => {
  const g = await newGame('space-station-phoenix', 4);
  await advance(g, 30);
  const { seat } = await advance(g, 400, (moves) => moves.some((m) => m.startsWith('use ')));
  assert.ok(seat !== undefined, 'no turn reached');
  const { ctx, page } = await openBoard(g, seat, ['Players', 'Ships', 'Neutral ships', 'Diplomacy', 'expedition',
    'Stations', 'Sector display', 'Supply', 'Ann', 'Bob <b>&', 'Cy', 'Di'], 'ssp');
  // every legal step has a button with its canonical text
  const { json } = await api(g, seat, '/legal');
  await toSteps(page);
  const values = await page.locator('button[name=move]').evaluateAll((bs) => bs.map((b) => b.value));
  for (const m of json.moves) assert.ok(values.includes(m), `no button for ${m}`);
  await tap(g, page, json.moves.find((m) => m.startsWith('use ')));
  await ctx.close();
});

test('a long Space Station Phoenix list of steps is grouped and stays small', async () => {
  // the first of a few fixed seeds whose walk reaches a list of 40 or more steps
  let g, found;
  for (let seed = 1; seed <= 6; seed++) {
    g = await newGame('space-station-phoenix', 3, seed);
    found = await advance(g, 1500, (moves) => moves.length >= 40);
    if (found.seat !== undefined) break;
  }
  assert.ok(found.seat !== undefined, `largest list seen: ${found.seen.size}`);
  const { ctx, page } = await openBoard(g, found.seat, ['Diplomacy', 'Stations'], 'ssp-long-list');
  assert.ok(await toSteps(page), `${found.moves.length} steps on the game page itself`);
  const groups = await page.locator('section.moves details').count();
  assert.ok(groups >= 2, `${found.moves.length} steps in ${groups} groups`);
  const values = await page.locator('button[name=move]').evaluateAll((bs) => bs.map((b) => b.value));
  assert.deepEqual([...values].sort(), [...found.moves].sort());
  await tap(g, page, found.moves[found.moves.length - 1]);
  await ctx.close();
});

test('the Starship Merchants board fits a phone, and steps are taps', async () => {
  const g = await newGame('starship-merchants', 4);
  await advance(g, 90);
  const { seat } = await advance(g, 50, () => true);
  const { ctx, page } = await openBoard(g, seat, ['The circuit', '1. Shipyard', '2. Market', '3. Belt', '4. Dock',
    'Destinations', 'Refineries', 'Players', 'credits', 'Ann', 'Bob <b>&', 'Cy', 'Di'], 'sm');
  const { json } = await api(g, seat, '/legal');
  await toSteps(page);
  const values = await page.locator('button[name=move]').evaluateAll((bs) => bs.map((b) => b.value));
  for (const m of json.moves) assert.ok(values.includes(m), `no button for ${m}`);
  await tap(g, page, json.moves[0]);
  await ctx.close();
});
