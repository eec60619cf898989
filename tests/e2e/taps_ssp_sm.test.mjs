// tests/e2e/taps_ssp_sm.test.mjs: whole Space Station Phoenix and Starship Merchants games played by taps on the board, two phones
// SPDX-License-Identifier: MIT
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const build = process.env.TOP_BUILDDIR || '../..';
const dir = mkdtempSync(join(tmpdir(), 'tp-e2e-taps2-'));
const db = join(dir, 'turnpost.db');
// screenshots and the measured counts stay in the build tree to be looked at
const shots = join(build, 'tests/e2e-run/shots');
const SCREEN = { width: 390, height: 844 };
let daemon, base, browser, planner, plans;

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
  // the test player's plan: the step the game's bot takes, cut into the parts to tap (tests/e2e/botpath.c)
  planner = spawn(join(build, 'tests/e2e/botpath'), [db, '2'], { stdio: ['pipe', 'pipe', 'inherit'] });
  plans = createInterface({ input: planner.stdout })[Symbol.asyncIterator]();
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  if (browser) await browser.close();
  if (planner) planner.stdin.end();
  if (daemon && daemon.exitCode === null) {
    const exited = new Promise((resolve) => daemon.once('exit', resolve));
    daemon.kill('SIGTERM');
    await exited;
  }
  if (!process.env.KEEP_TEST_DIRS) rmSync(dir, { recursive: true, force: true });
});

async function plan(id, seat) {
  planner.stdin.write(`${id} ${seat}\n`);
  const { value } = await plans.next();
  const [text, path] = value.split('\t');
  assert.notEqual(text, 'error', `no plan for seat ${seat}: ${path}`);
  return { text, parts: path.split('.') };
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
    const ctx = await browser.newContext({ viewport: SCREEN, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
    const page = await ctx.newPage();
    page.on('dialog', (d) => { throw new Error(`a dialog opened: ${d.message()}`); });
    await page.goto(`${base}/s/${token}`);
    out.push({ ctx, page, url: page.url() });
  }
  return out;
}

// One look at the page as loaded: what a test needs of it, in one round trip.
function look(page) {
  return page.evaluate((h) => {
    const board = document.querySelector('#board');
    const nav = performance.getEntriesByType('navigation')[0];
    const confirm = document.querySelector('#board button[name=confirm]');
    const controls = [...document.querySelectorAll('main a, main button, main summary')];
    const onScreen = (el) => { const r = el.getBoundingClientRect(); return r.height > 0 && r.top < h; };
    // the controls a player meets before the board's first choice: those ahead of the board, as shown
    const ahead = board ? controls.filter((el) => !board.contains(el) &&
      (el.compareDocumentPosition(board) & Node.DOCUMENT_POSITION_FOLLOWING) && el.getClientRects().length) : controls;
    return {
      bytes: nav ? nav.decodedBodySize : 0,
      alert: document.querySelector('[role=alert]')?.textContent || '',
      status: document.querySelector('p.status')?.textContent || '',
      top: board ? board.getBoundingClientRect().top : null,
      ahead: ahead.length,
      screen: controls.filter(onScreen).length,
      taps: [...document.querySelectorAll('#board a.tap')].map((a) => ({
        href: a.getAttribute('href'), label: a.querySelector('title')?.textContent || a.getAttribute('aria-label') || '' })),
      confirm: confirm ? { move: confirm.form.querySelector('input[name=move]').value, text: confirm.textContent } : null,
    };
  }, SCREEN.height);
}

async function tap(page, locator) {
  await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), locator.click()]);
}

const unescape = (s) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/*
 * The same taps as plain requests, for the turns the browser adds nothing
 * to: the page is fetched with the phone's cookies, the planned part's link
 * followed, and the confirm form posted as the browser would submit it.
 */
async function tapsByRequest(phone, text, parts) {
  const cookie = (await phone.ctx.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const get = async (path) => {
    const res = await fetch(base + path, { headers: { Cookie: cookie } });
    assert.equal(res.status, 200, `GET ${path}`);
    return res.text();
  };
  let html = await get(new URL(phone.url).pathname + new URL(phone.url).search);
  for (let n = 0; n < parts.length; n++) {
    const want = `&t=${parts.slice(0, n + 1).join('.')}`;
    const hrefs = [...html.matchAll(/<a class="tap" href="([^"]*)"/g)].map((m) => unescape(m[1]));
    const href = hrefs.find((h) => h.endsWith(want));
    assert.ok(href, `${text}: the board does not offer ${parts[n]} (offered: ${hrefs.join(' ')})`);
    html = await get(href);
  }
  const form = /<form method="post" action="([^"]*)" class="confirm">([\s\S]*?)<\/form>/.exec(html);
  assert.ok(form, `no confirm button after the taps of ${text}`);
  const fields = new URLSearchParams();
  for (const m of form[2].matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)) fields.append(m[1], unescape(m[2]));
  assert.equal(fields.get('move'), text);
  fields.append('confirm', '1');
  const res = await fetch(base + unescape(form[1]), { method: 'POST', redirect: 'manual', body: fields,
    headers: { Cookie: cookie, Origin: base } });
  assert.equal(res.status, 303, `confirming ${text}`);
  return parts.length + 1;
}

/*
 * A whole game, every step built by taps on the board and confirmed on the
 * phone of the seat whose decision it is. The test player follows the plan
 * of the game's bot (level 2) but taps only what the board offers: each
 * planned part must be a link on the board, and the confirm button must
 * hold the planned step.
 *
 * Every turn opens on the player's phone, where the board must start within
 * the first screen, with at most a dozen controls ahead of it. The browser
 * taps the whole turn on the first two turns and on every `every`-th one; the
 * other turns follow the same links and post the same confirm form as
 * plain requests, which keeps a game of some 600 taps within a minute or
 * two (TAPS_EVERY=1: every tap in the browser).
 */
async function play(game, seed, names, limits) {
  const T0 = Date.now();
  const every = Number(process.env.TAPS_EVERY || limits.every);
  const g = await newGame(game, seed);
  const ph = await phones(g);
  const planned = [];
  const stats = { turns: 0, steps: 0, taps: 0, browserTaps: 0, offered: 0, maxOffered: 0, maxAhead: 0,
    maxScreen: 0, maxBytes: 0 };
  const ms = { open: 0, browser: 0, requests: 0, plan: 0, api: 0 };
  const clock = async (k, p) => { const t = Date.now(); const r = await p; ms[k] += Date.now() - t; return r; };
  const turnTaps = [];
  let last = -1, browser = true, now = await api(g, '');
  while (now.status === 'active') {
    const seat = now.active_seats[0];
    const phone = ph[seat];
    const { page } = phone;
    let seen = null;
    if (seat !== last) {
      // a new turn on this player's phone: the board at the top, few controls ahead of it, the player called by name
      seen = await clock('open', page.goto(phone.url, { waitUntil: 'domcontentloaded' }).then(() => look(page)));
      stats.turns++;
      turnTaps.push(0);
      browser = stats.turns <= 2 || stats.turns % every === 0;
      const at = `${game} turn ${stats.turns} (${seen.status})`;
      assert.ok(seen.top !== null && seen.top < SCREEN.height, `${at}: the board starts at ${seen.top}px`);
      assert.ok(seen.ahead <= limits.ahead, `${at}: ${seen.ahead} controls ahead of the board`);
      assert.ok(seen.taps.length >= 1, `${at}: nothing to tap`);
      assert.ok(seen.bytes < 100 * 1024, `${at}: a page of ${seen.bytes} bytes`);
      assert.ok(seen.status.includes(names[seat]) || /Diplomacy/.test(seen.status), `prompt: ${seen.status}`);
      assert.ok(!/Player \d|@\d|\bp\d\b/.test(seen.status), `prompt: ${seen.status}`);
      stats.offered += seen.taps.length;
      stats.maxOffered = Math.max(stats.maxOffered, seen.taps.length);
      stats.maxAhead = Math.max(stats.maxAhead, seen.ahead);
      stats.maxScreen = Math.max(stats.maxScreen, seen.screen);
      stats.maxBytes = Math.max(stats.maxBytes, seen.bytes);
      if (browser) {
        // each tap is a link named by what it does (the accessibility tree's name)
        const label = seen.taps[0].label;
        assert.ok(await page.getByRole('link', { name: label, exact: true }).count() > 0, `no link named ${label}`);
      }
      if (stats.turns === limits.shot) await page.screenshot({ path: join(shots, `taps-${game}-turn.png`) });
      last = seat;
    }
    const { text, parts } = await clock('plan', plan(g.id, seat));
    planned.push(text);
    let n = 0;
    if (!browser) {
      n = await clock('requests', tapsByRequest(phone, text, parts));
    } else {
      const t = Date.now();
      if (!seen) seen = await look(page);
      for (let i = 0; i < parts.length; i++) {
        const want = `&t=${parts.slice(0, i + 1).join('.')}`;
        const k = seen.taps.findIndex((t) => t.href.endsWith(want));
        assert.ok(k >= 0, `${game}: ${text}: the board does not offer ${parts[i]} (offered: ${seen.taps.map((t) => t.href).join(' ')})`);
        // a tap is named by what it does, with names, never seat marks
        assert.ok(seen.taps[k].label.length > 2 && !/@\d/.test(seen.taps[k].label), `a tap without a name: ${seen.taps[k].label}`);
        await tap(page, page.locator('#board a.tap').nth(k));
        n++;
        seen = await look(page);
        assert.equal(seen.alert, '', `${game}: tapping ${parts[i]}`);
        stats.maxBytes = Math.max(stats.maxBytes, seen.bytes);
        assert.ok(seen.bytes < 100 * 1024, `${game}: a page of ${seen.bytes} bytes`);
      }
      assert.ok(seen.confirm, `${game}: no confirm button after the taps of ${text}`);
      assert.equal(seen.confirm.move, text);
      assert.ok(!/@\d/.test(seen.confirm.text), seen.confirm.text);
      await tap(page, page.locator('#board button[name=confirm]'));
      n++;
      stats.browserTaps += n;
      ms.browser += Date.now() - t;
    }
    stats.taps += n;
    stats.steps++;
    turnTaps[turnTaps.length - 1] += n;
    const before = now.move_count;
    now = await clock('api', api(g, ''));
    assert.ok(now.move_count > before, `${game}: ${text} was not stored`);
    assert.ok(stats.steps < limits.steps, `${game}: no end after ${stats.steps} steps`);
  }
  // every step stored is the one the taps built
  const moves = (await api(g, '/moves')).moves.filter((m) => m.via === 'web').map((m) => m.text);
  assert.deepEqual(moves, planned);
  // the end: both phones show the final scores, and nothing to tap
  assert.equal(now.status, 'finished');
  for (const { page, url } of ph) {
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    const end = await look(page);
    assert.match(end.status, /Game over/);
    for (const w of now.result.winners)
      assert.ok(end.status.includes(`${names[w]} (${now.result.scores[w]})`), `the winner: ${end.status}`);
    // every player's final score in words, and no empty or placeholder tiebreak ("none needed", a dangling ". ")
    now.result.scores.forEach((score, s) =>
      assert.ok(end.status.includes(`${names[s]} (${score})`), `${names[s]}'s score: ${end.status}`));
    assert.doesNotMatch(end.status, /none needed|\.\s+$|\. \./, end.status);
    // every player's final score on the board (its final scoring)
    const board = await page.locator('#board').textContent();
    for (const score of now.result.scores) assert.ok(board.includes(String(score)), `the board lacks the score ${score}`);
    assert.equal(end.taps.length, 0);
  }
  await ph[0].page.screenshot({ path: join(shots, `taps-${game}-end.png`) });
  for (const p of ph) await p.ctx.close();
  turnTaps.sort((a, b) => a - b);
  const summary = { game, seed, ...stats, tapsPerTurn: +(stats.taps / stats.turns).toFixed(1),
    medianTurnTaps: turnTaps[turnTaps.length >> 1], stepsPerTurn: +(stats.steps / stats.turns).toFixed(1),
    meanOffered: +(stats.offered / stats.turns).toFixed(1), ms, seconds: Math.round((Date.now() - T0) / 1000) };
  writeFileSync(join(shots, `taps-${game}.json`), JSON.stringify(summary, null, 1));
  console.log(`# ${JSON.stringify(summary)}`);
  return summary;
}

// Seeds of short games among the first fifteen the bot plays (87 and 56 turns). The two games run at
// once, each on its own two phones: each step waits on the browser, the server or the planner in turn.
describe('whole games by taps', { concurrency: true }, () => {
  it('a whole Space Station Phoenix game by taps on the board, from two phones', { timeout: 900000 }, async () => {
    await play('space-station-phoenix', 14, ['Yara', 'Zed'], { ahead: 12, every: 16, shot: 12, steps: 1000 });
  });

  it('a whole Starship Merchants game by taps on the board, from two phones', { timeout: 900000 }, async () => {
    await play('starship-merchants', 10, ['Yara', 'Zed'], { ahead: 12, every: 16, shot: 12, steps: 1000 });
  });
});
