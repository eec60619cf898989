// tests/e2e/story.test.mjs: the story of a game on a phone: since your last turn, the whole story, the replay
// SPDX-License-Identifier: MIT
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const build = process.env.TOP_BUILDDIR || '../..';
const dir = mkdtempSync(join(tmpdir(), 'tp-e2e-story-'));
const db = join(dir, 'turnpost.db');
let daemon, base, browser, seatTokens;

async function waitForFile(path, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (existsSync(path)) {
      const text = readFileSync(path, 'utf8').trim();
      if (text) return text;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no ${path} after ${ms} ms`);
}

async function play(seat, moves) {
  const res = await fetch(`${base}/api/v1/games/${gameId}/moves`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${seatTokens[seat]}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ moves }),
  });
  assert.equal(res.status, 200, await res.text());
}

let gameId;

before(async () => {
  const cli = (...args) => execFileSync(join(build, 'tests/turnpost-test'), ['--db', db, ...args]).toString();
  const admin = cli('user', 'add', 'admin@example.org', '--admin', '--create').trim().split('\n').pop();
  daemon = spawn(join(build, 'tests/turnpostd-test'),
    ['--db', db, '--listen', '127.0.0.1:0', '--port-file', join(dir, 'port'), '--quiet'],
    { stdio: ['ignore', 'ignore', 'inherit'] });
  base = `http://127.0.0.1:${await waitForFile(join(dir, 'port'), 20000)}`;
  const res = await fetch(`${base}/api/v1/games`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ game: 'counting-race', options: { target: 40 }, players: [
      { name: 'Ann', email: 'ann@example.org' }, { name: 'Bob', email: 'bob@example.org' }] }),
  });
  assert.equal(res.status, 201);
  const created = await res.json();
  gameId = created.id;
  seatTokens = created.seats.map((s) => s.token);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  if (browser) await browser.close();
  if (daemon && daemon.exitCode === null) {
    const exited = new Promise((resolve) => daemon.once('exit', resolve));
    daemon.kill('SIGTERM');
    await exited;
  }
  if (!process.env.KEEP_TEST_DIRS) rmSync(dir, { recursive: true, force: true });
});

function phone(options = {}) {
  return browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2,
    isMobile: true, hasTouch: true, ...options });
}

test('since your last turn is at the top of the page, in words, newest first', async () => {
  await play(0, ['add 2', 'end']);
  await play(1, ['add 1', 'end']);
  await play(0, ['add 3', 'add 1', 'undo', 'add 2', 'end']);
  const ctx = await phone();
  const page = await ctx.newPage();
  await page.goto(`${base}/s/${seatTokens[1]}`);
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
  await page.screenshot({ path: join(dir, 'since.png'), fullPage: false });

  // the whole story is one tap away, newest first
  await story.getByRole('link', { name: 'The whole story' }).click();
  const all = (await page.locator('ol.history li').allTextContents()).map((t) => t.split(' Ann ·')[0].split(' Bob ·')[0].trim());
  assert.deepEqual(all, ['Ann: end', 'Ann: add 2', 'Ann: add 3', 'Bob: end', 'Bob: add 1', 'Ann: end', 'Ann: add 2']);
  await ctx.close();
});

test('the replay walks the steps Bob may see, with first, back, forward and last', async () => {
  const ctx = await phone();
  const page = await ctx.newPage();
  await page.goto(`${base}/s/${seatTokens[1]}`);
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
