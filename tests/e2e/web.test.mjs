// tests/e2e/web.test.mjs: the game pages in a real browser (Debian's Chromium) on a phone-sized screen
// SPDX-License-Identifier: MIT
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const build = process.env.TOP_BUILDDIR || '../..';
const dir = mkdtempSync(join(tmpdir(), 'tp-e2e-'));
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
    body: JSON.stringify({ game: 'counting-race', players: [
      { name: 'Ann', email: 'ann@example.org' }, { name: 'Bob', email: 'bob@example.org' }] }),
  });
  assert.equal(res.status, 201);
  seatTokens = (await res.json()).seats.map((s) => s.token);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  if (browser) await browser.close();
  if (daemon && daemon.exitCode === null) {
    // wait until it has stopped writing (mail files) before removing its directory
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

test('a seat link signs in and the game page fits a phone', async () => {
  const ctx = await phone();
  const page = await ctx.newPage();
  const resp = await page.goto(`${base}/s/${seatTokens[0]}`);
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
  await page.screenshot({ path: join(dir, 'game.png'), fullPage: true });
  await ctx.close();
});

test('steps are taps: a button, then undo, then a typed turn', async () => {
  const ctx = await phone();
  const page = await ctx.newPage();
  await page.goto(`${base}/s/${seatTokens[0]}`);
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
  await page.goto(`${base}/s/${seatTokens[1]}`);
  await page.getByLabel('Or type steps, one per line').fill('add 9');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const alert = page.getByRole('alert');
  await alert.waitFor();
  assert.match(await alert.textContent(), /Line 1.*add 9.*not 9/s);
  assert.equal(await page.getByLabel('Or type steps, one per line').inputValue(), 'add 9');
  await page.screenshot({ path: join(dir, 'error.png'), fullPage: true });
  await ctx.close();
});

test('pages stay small', async () => {
  const ctx = await phone();
  const page = await ctx.newPage();
  let bytes = 0;
  page.on('response', async (r) => { try { bytes += (await r.body()).length; } catch { /* redirects */ } });
  await page.goto(`${base}/s/${seatTokens[0]}`);
  await page.waitForLoadState('networkidle');
  assert.ok(bytes < 100 * 1024, `game page weighs ${bytes} bytes`);
  await ctx.close();
});

test('the Alien Frontiers board is drawn and fits a phone', async () => {
  const admin = execFileSync(join(build, 'tests/turnpost-test'), ['--db', db, 'token', 'add', 'admin@example.org'])
    .toString().trim().split('\n').pop();
  const res = await fetch(`${base}/api/v1/games`, {
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
  await page.goto(`${base}/s/${tokens[0]}`);
  const board = page.locator('section.board svg');
  await board.waitFor();
  const box = await board.boundingBox();
  assert.ok(box.width <= 390 && box.width > 300, `board is ${box.width}px wide`);
  const text = await board.textContent();
  for (const word of ['Lunar Mine', 'Colonist Hub', 'Burroughs Desert', 'Relic Ship', 'Ann (you)', 'Cy <script>'])
    assert.ok(text.includes(word), `board lacks ${word}`);
  // the tap-first steps: at least one dock button
  assert.ok(await page.locator('button[name=move][value^="dock "]').count() > 0);
  await page.screenshot({ path: join(dir, 'af.png'), fullPage: true });
  await ctx.close();
});
