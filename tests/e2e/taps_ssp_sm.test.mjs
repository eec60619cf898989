// tests/e2e/taps_ssp_sm.test.mjs: Space Station Phoenix and Starship Merchants played by taps on the board, two phones
// SPDX-License-Identifier: MIT
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const build = process.env.TOP_BUILDDIR || '../..';
const dir = mkdtempSync(join(tmpdir(), 'tp-e2e-taps2-'));
const db = join(dir, 'turnpost.db');
const shots = join(build, 'tests/e2e-run/shots');
// steps played per game: each is built by taps on the board and confirmed, by the seat whose turn it is
const STEPS = Number(process.env.TAPS_STEPS || 24);
let daemon, base, browser;

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
  mkdirSync(shots, { recursive: true });
  execFileSync(join(build, 'tests/turnpost-test'), ['--db', db, 'user', 'add', 'admin@example.org', '--admin', '--create']);
  daemon = spawn(join(build, 'tests/turnpostd-test'),
    ['--db', db, '--listen', '127.0.0.1:0', '--port-file', join(dir, 'port'), '--quiet'],
    { stdio: ['ignore', 'ignore', 'inherit'] });
  base = `http://127.0.0.1:${await waitForFile(join(dir, 'port'), 20000)}`;
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

// A fixed walk (so every run plays the same game): a small linear congruential generator.
function walk(seed) {
  let x = seed >>> 0;
  return (n) => { x = (Math.imul(x, 1103515245) + 12345) >>> 0; return (x >>> 8) % n; };
}

async function newGame(game, seed) {
  const out = execFileSync(join(build, 'tests/turnpost-test'),
    ['--db', db, 'game', 'create', game, '--player', `Yara <${game}-y@example.org>`,
      '--player', `Zed <${game}-z@example.org>`, '--seed', String(seed)]).toString();
  const id = Number(/^game (\d+) created/m.exec(out)[1]);
  const tokens = out.split('\n').filter((l) => l.startsWith('seat ')).map((l) => l.split('\t').pop());
  return { id, tokens };
}

async function api(g, path) {
  const res = await fetch(`${base}/api/v1/games/${g.id}${path}`, { headers: { Authorization: `Bearer ${g.tokens[0]}` } });
  return res.json();
}

// Each player on their own phone, signed in by their seat link.
async function phones(g) {
  const out = [];
  for (const token of g.tokens) {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2,
      isMobile: true, hasTouch: true });
    const page = await ctx.newPage();
    await page.goto(`${base}/s/${token}`);
    out.push({ ctx, page, url: page.url() });
  }
  return out;
}

async function play(game, seed, names) {
  const g = await newGame(game, seed);
  const ph = await phones(g);
  const pick = walk(seed);
  const taps = [];      // taps (confirm included) of each step
  const turns = [];     // taps of each whole turn: the steps of one seat until another seat acts
  let last = -1, turn = 0, shot = false;
  for (let step = 0; step < STEPS; step++) {
    const now = await api(g, '');
    if (now.status !== 'active') break;
    const seat = now.active_seats[0];
    const { page, url } = ph[seat];
    if (seat !== last && last >= 0) { turns.push(turn); turn = 0; }
    last = seat;
    await page.goto(url);
    // the prompt calls the player by name, never "Player 1" or a seat mark
    const status = await page.locator('p.status').textContent();
    assert.ok(status.includes(names[seat]) || /Diplomacy/.test(status), `prompt: ${status}`);
    assert.ok(!/Player \d|@\d|\bp\d\b/.test(status), `prompt: ${status}`);
    // on your turn the board starts within the first screen
    const top = await page.locator('#board').evaluate((el) => el.getBoundingClientRect().top);
    assert.ok(top < 844, `the board starts at ${top}px`);
    let n = 0;
    for (;;) {
      const offered = page.locator('#board a.tap');
      const count = await offered.count();
      const confirm = page.locator('button[name=confirm]');
      const can = await confirm.count();
      assert.ok(count > 0 || can > 0, `${game}: nothing to tap at step ${step}`);
      if (can && (!count || pick(3) === 0)) {
        const value = await confirm.locator('xpath=..').locator('input[name=move]').inputValue();
        // the confirm button says the step in words, with names
        assert.ok(!/@\d/.test(await confirm.textContent()), await confirm.textContent());
        const before = (await api(g, '')).move_count;
        await Promise.all([page.waitForNavigation(), confirm.click()]);
        const after = await api(g, '');
        assert.ok(after.move_count > before, `${value} was not stored`);
        const moves = await api(g, '/moves');
        assert.equal(moves.moves[moves.moves.length - 1].text, value);
        n++;
        break;
      }
      const k = pick(count);
      // a tap is named by what it does (its title), with names, never seat marks
      const label = await offered.nth(k).locator('title').first().textContent();
      assert.ok(label && label.length > 2 && !/@\d/.test(label), `a tap without a name: ${label}`);
      assert.ok(await page.getByRole('link', { name: label, exact: true }).count() > 0, `no link named ${label}`);
      await Promise.all([page.waitForNavigation(), offered.nth(k).click()]);
      n++;
      if (!shot && n === 1 && step > 6) {
        await page.screenshot({ path: join(shots, `taps-${game}.png`), fullPage: false });
        shot = true;
      }
      assert.ok(n < 12, `${game}: a step of more than 12 taps`);
    }
    taps.push(n);
    turn += n;
  }
  for (const p of ph) await p.ctx.close();
  const avg = (a) => (a.length ? (a.reduce((x, y) => x + y, 0) / a.length).toFixed(1) : '-');
  console.log(`# ${game}: ${taps.length} steps by taps, ${avg(taps)} taps per step, ${avg(turns)} per turn (${turns.length} turns)`);
  return { taps, turns };
}

test('Space Station Phoenix: two phones build every step by taps on the board and confirm it', async () => {
  const { taps } = await play('space-station-phoenix', 11, ['Yara', 'Zed']);
  assert.ok(taps.length >= Math.min(STEPS, 20));
});

test('Starship Merchants: two phones build every step by taps on the board and confirm it', async () => {
  const { taps } = await play('starship-merchants', 12, ['Yara', 'Zed']);
  assert.ok(taps.length >= Math.min(STEPS, 20));
});
