// tests/e2e/taps.test.mjs: a whole two-player Alien Frontiers game played only by taps on the board, on two phones
// SPDX-License-Identifier: MIT
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const build = process.env.TOP_BUILDDIR || '../..';
const dir = mkdtempSync(join(tmpdir(), 'tp-e2e-taps-'));
const db = join(dir, 'turnpost.db');
// screenshots and the measured counts stay in the build tree to be looked at
const shots = join(build, 'tests/e2e-run/shots');
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
  const cli = (...args) => execFileSync(join(build, 'tests/turnpost-test'), ['--db', db, ...args]).toString();
  cli('user', 'add', 'admin@example.org', '--admin', '--create');
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

// A small seeded generator: the same run taps the same parts.
function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/*
 * The test player: it reads only the offered taps' accessible names (what
 * each does, costs and gives) and its own resources. Colonies first; a
 * 6 is tapped first (the Terraforming Station), equal dice go together
 * (a pair builds a ship), the rest go together to the Colonist Hub until
 * its colony is ready, then to what the launch needs. Card powers last. It
 * confirms a step as soon as it can.
 */
function score(label, me, chosen) {
  const ready = me.hub_circle >= 7;
  const add = /^Add your (\d)/.exec(label);
  if (add) return chosen.includes(add[1]) ? 70 : 55;
  const first = /^Choose your (\d)/.exec(label);
  if (first) return 20 + Number(first[1]);
  const rules = [[/colon(y|ies)|Launch/i, 100], [/Steal|Return/, 90], [/\+1 ship/, 65],
    [/Lunar Mine/, ready && me.ore < 1 ? 80 : me.ore <= me.fuel ? 35 : 30],
    [/Solar Converter/, ready && me.fuel < 1 ? 80 : me.fuel < me.ore ? 35 : 30],
    [/Colonist Hub/, ready ? 10 : 60], [/Orbital Market/, 20], [/^Trade/, me.ore < 1 ? 45 : 2],
    [/End your turn/, 5]];
  for (const [re, s] of rules) if (re.test(label)) return s;
  return 1;
}

async function phone() {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1,
    isMobile: true, hasTouch: true });
  const page = await ctx.newPage();
  page.on('dialog', (d) => { throw new Error(`a dialog opened: ${d.message()}`); });
  return { ctx, page };
}

async function tapAndWait(page, locator) {
  await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), locator.click()]);
}

const unescape = (s) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/*
 * The turns the browser adds nothing to are tapped as plain requests: the
 * phone's cookies, the same links followed and the same confirm form posted
 * as the browser would. Both drivers answer look() (the confirm button and
 * the offered taps' names), tap(k), confirm() and board() (the board's text).
 */
function browserDriver(page) {
  return {
    look: () => page.evaluate(() => ({ confirm: !!document.querySelector('#board button[name=confirm]'),
      alert: document.querySelector('[role=alert]')?.textContent || '',
      taps: [...document.querySelectorAll('#board a.tap')].map((a) => a.getAttribute('aria-label')) })),
    tap: (k) => tapAndWait(page, page.locator('#board a.tap').nth(k)),
    confirm: () => tapAndWait(page, page.locator('#board button[name=confirm]')),
    board: () => page.locator('#board svg').textContent(),
  };
}

async function requestDriver(ctx, url) {
  const cookie = (await ctx.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  let html = '';
  const get = async (path) => {
    const res = await fetch(new URL(path, url), { headers: { Cookie: cookie } });
    assert.equal(res.status, 200, `GET ${path}`);
    html = await res.text();
  };
  const taps = () => [...html.matchAll(/<a class="tap"[^>]*>/g)].map((m) => ({
    href: unescape(/ href="([^"]*)"/.exec(m[0])[1]), label: unescape(/ aria-label="([^"]*)"/.exec(m[0])?.[1] || '') }));
  const form = () => /<form method="post" action="([^"]*)" class="confirm">([\s\S]*?)<\/form>/.exec(html);
  await get(url);
  return {
    look: () => ({ confirm: !!form(), alert: /role="alert"/.test(html) ? 'alert' : '', taps: taps().map((t) => t.label) }),
    tap: (k) => get(taps()[k].href),
    confirm: async () => {
      const f = form();
      const fields = new URLSearchParams();
      for (const m of f[2].matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)) fields.append(m[1], unescape(m[2]));
      fields.append('confirm', '1');
      const res = await fetch(new URL(unescape(f[1]), url), { method: 'POST', redirect: 'manual', body: fields,
        headers: { Cookie: cookie, Origin: new URL(url).origin } });
      assert.equal(res.status, 303, `confirming ${fields.get('move')}`);
      await get(res.headers.get('location'));
    },
    board: () => unescape(/<svg[\s\S]*<\/svg>/.exec(html)?.[0].replace(/<[^>]*>/g, '') || ''),
  };
}

test('a whole Alien Frontiers game by taps on the board, from two phones', { timeout: 600000 }, async () => {
  const out = execFileSync(join(build, 'tests/turnpost-test'), ['--db', db, 'game', 'create', 'alien-frontiers',
    '--player', 'Ann <ann@example.org>', '--player', 'Bob <bob@example.org>', '--seed', '7']).toString();
  const id = Number(/^game (\d+) created/m.exec(out)[1]);
  const tokens = out.split('\n').filter((l) => l.startsWith('seat ')).map((l) => l.split('\t').pop());
  const api = async (seat, path) => (await fetch(`${base}/api/v1/games/${id}${path}`,
    { headers: { Authorization: `Bearer ${tokens[seat]}` } })).json();
  const phones = [await phone(), await phone()];
  for (let s = 0; s < 2; s++) await phones[s].page.goto(`${base}/s/${tokens[s]}`);
  const rand = prng(7);
  const stats = { turns: 0, steps: 0, taps: 0, browserTaps: 0, offered: 0, maxOffered: 0, maxControls: 0, moves: 0 };
  const every = Number(process.env.TAPS_EVERY || 16);
  let over = false;

  const T0 = Date.now();
  for (let turn = 0; turn < 200 && !over; turn++) {
    const tapsBefore = stats.taps;
    let game = await api(0, '');
    if (game.status !== 'active') break;
    const seat = game.active_seats[0];
    game = await api(seat, '');
    stats.moves = game.move_count;
    const { page } = phones[seat];
    await page.goto(`${base}/games/${id}?seat=${seat}`);
    // on the turn's first screen: the board's top edge shows, with a dozen controls or fewer to choose from
    const top = (await page.locator('#board').boundingBox()).y;
    assert.ok(top < 844, `the board starts at ${top}px`);
    // the controls on the first screen: links, buttons and folded lists in the page, taps on the board
    const controls = await page.evaluate(() => [...document.querySelectorAll('main a, main button, main summary')]
      .filter((el) => { const r = el.getBoundingClientRect(); return r.height > 0 && r.top < 844; }).length);
    const offered = await page.locator('#board a.tap').count();
    assert.ok(offered >= 1 && offered <= 12, `${offered} taps offered at the start of a turn`);
    assert.ok(controls <= 14, `${controls} controls on the first screen at the start of a turn`);
    stats.maxOffered = Math.max(stats.maxOffered, offered);
    stats.offered += offered;
    stats.maxControls = Math.max(stats.maxControls, controls);
    if (turn === 0) await page.screenshot({ path: join(shots, 'taps-af-turn.png') });
    stats.turns++;
    // the browser taps the first turns and every `every`-th; the others are the same taps as plain requests
    const inBrowser = turn < 2 || turn % every === 0;
    const drive = inBrowser ? browserDriver(page) : await requestDriver(phones[seat].ctx, page.url());
    // the turn: taps until the turn passes or the game ends
    let me = game.view.player_state[seat], chosen = [];
    for (let i = 0; i < 400; i++) {
      // one look at the page: the confirm button, and the offered taps' names
      const look = await drive.look();
      if (look.confirm) {
        const before = stats.moves;
        await drive.confirm();
        stats.taps++;
        stats.steps++;
        if (inBrowser) stats.browserTaps++;
        assert.equal((await drive.look()).alert, '', 'the confirmed step was refused');
        const after = await api(seat, '');
        assert.equal(after.move_count, before + 1, 'the confirmed step was not stored');
        stats.moves = after.move_count;
        me = after.view.player_state[seat];
        chosen = [];
        if (after.status !== 'active') { over = true; break; }
        if (after.active_seats[0] !== seat) break;
        continue;
      }
      const taps = look.taps;
      assert.ok(taps.length, 'nothing to tap and nothing to confirm on my turn');
      const best = Math.max(...taps.map((t) => score(t, me, chosen)));
      const choices = taps.map((t, k) => k).filter((k) => score(taps[k], me, chosen) === best);
      const k = choices[Math.floor(rand() * choices.length)];
      const die = /^(?:Choose|Add) your (\d)/.exec(taps[k]);
      if (die) chosen.push(die[1]);
      await drive.tap(k);
      stats.taps++;
      if (inBrowser) stats.browserTaps++;
    }
    // the board shows the position the API gives: points and the ships still to place
    const view = (await api(seat, '')).view;
    const board = await drive.board();
    for (const p of view.player_state) assert.ok(board.includes(`${p.vp} VP`), `the board lacks ${p.vp} VP`);
    if (process.env.TAPS_DEBUG) console.log(`# turn ${turn} seat ${seat}: ${stats.taps - tapsBefore} taps, ${Date.now() - T0} ms, vp ${view.player_state.map((p) => p.vp)}`);
  }
  assert.ok(over, `the game did not end in ${stats.turns} turns`);
  const end = await api(0, '');
  assert.equal(end.status, 'finished');
  for (const { page } of phones) {
    await page.goto(`${base}/games/${id}`);
    const status = await page.locator('p.status').textContent();
    assert.match(status, /Game over/);
    // the final scores: the winner's in the status, every player's points on the board
    for (const w of end.result.winners) assert.ok(status.includes(`(${end.result.scores[w]})`), `the winner: ${status}`);
    // the others' scores too, after the winner's
    end.result.scores.forEach((score) => assert.ok(status.includes(`(${score})`), `a score missing: ${status}`));
    const board = await page.locator('#board svg').textContent();
    for (const p of end.view.player_state) assert.ok(board.includes(`${p.vp} VP`), `the board lacks ${p.vp} VP`);
    assert.equal(await page.locator('#board a.tap').count(), 0);
  }
  await phones[0].page.screenshot({ path: join(shots, 'taps-af-end.png') });
  const summary = { ...stats, tapsPerTurn: +(stats.taps / stats.turns).toFixed(1),
    stepsPerTurn: +(stats.steps / stats.turns).toFixed(1), meanOffered: +(stats.offered / stats.turns).toFixed(1), seconds: Math.round((Date.now() - T0) / 1000) };
  writeFileSync(join(shots, 'taps-af.json'), JSON.stringify(summary, null, 1));
  console.log(`# ${JSON.stringify(summary)}`);
  for (const p of phones) await p.ctx.close();
});
