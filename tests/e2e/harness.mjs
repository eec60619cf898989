// tests/e2e/harness.mjs: what every browser test starts from: a daemon on a database of its own, one chromium, phones
// SPDX-License-Identifier: MIT
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const build = process.env.TOP_BUILDDIR || '../..';
// a phone's screen in CSS pixels
export const SCREEN = { width: 390, height: 844 };
// screenshots and measured counts stay in the build tree to be looked at
export const shots = join(build, 'tests/e2e-run/shots');

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Poll until fn() gives something truthy; `what` names it in the error.
export async function until(what, ms, fn) {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`${what}: nothing after ${ms} ms`);
    await sleep(20);
  }
}

/*
 * The set-up of a test file: call it once at the top level. It registers
 * node:test hooks that start turnpostd-test on a fresh database in a
 * temporary directory (listening on a free port) and one chromium, and
 * stop both and remove the directory at the end (KEEP_TEST_DIRS=1 keeps
 * it). `setup(h)` runs while the daemon starts and adds the users a test
 * needs (h.cli runs the admin command line on the same database); without
 * it the database starts with one admin, admin@example.org.
 * `daemonArgs` (or daemonArgs(h)) are added to the daemon's command line;
 * `ready(h)` runs last, with the daemon up (a file's own before hook may
 * run ahead of this one). The object it returns carries base (the
 * daemon's URL) and browser once the hooks ran.
 */
export function harness(name, { setup, daemonArgs = [], ready } = {}) {
  const dir = mkdtempSync(join(tmpdir(), `tp-e2e-${name}-`));
  const db = join(dir, 'turnpost.db');
  let daemon, launched, planner, plans;
  const h = {
    dir,
    db,
    base: '',
    browser: null,
    cli: (...args) => execFileSync(join(build, 'tests/turnpost-test'), ['--db', db, ...args]).toString(),
    // a phone: its own browser context (cookies), 390x844, touch; no page may open a dialog
    async phone(options = {}) {
      const ctx = await h.browser.newContext({ viewport: SCREEN, deviceScaleFactor: 2, isMobile: true,
        hasTouch: true, ...options });
      ctx.on('page', (page) => page.on('dialog', (d) => { throw new Error(`a dialog opened: ${d.message()}`); }));
      return ctx;
    },
    // each player of game g on their own phone, signed in by their seat link: [{ ctx, page, url }], url the game's
    // page for that seat; a scale of 1, as the whole games take many pages and screenshots
    async seatPhones(g) {
      const out = [];
      for (const token of g.tokens) {
        const ctx = await h.phone({ deviceScaleFactor: 1 });
        const page = await ctx.newPage();
        await page.goto(`${h.base}/s/${token}`, { waitUntil: 'domcontentloaded' });
        out.push({ ctx, page, url: page.url() });
      }
      return out;
    },
    /*
     * The step the game's level-2 bot takes for a seat of game id, and the
     * parts of the board that build it (tests/e2e/botpath.c, reading the
     * database beside the daemon): { text, parts }. Answers come in the
     * order asked, so games may ask at once.
     */
    async plan(id, seat) {
      if (!planner) {
        planner = spawn(join(build, 'tests/e2e/botpath'), [db, '2'], { stdio: ['pipe', 'pipe', 'inherit'] });
        plans = createInterface({ input: planner.stdout })[Symbol.asyncIterator]();
      }
      planner.stdin.write(`${id} ${seat}\n`);
      const { value } = await plans.next();
      const [text, path] = value.split('\t');
      assert.notEqual(text, 'error', `no plan for seat ${seat}: ${path}`);
      return { text, parts: path.split('.') };
    },
    // game g's API (path under /api/v1/games/ID) with seat's token; a POST when there is a body: { status, json }
    async api(g, seat, path, body) {
      const res = await fetch(`${h.base}/api/v1/games/${g.id}${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { Authorization: `Bearer ${g.tokens[seat]}`, 'Content-Type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, json: await res.json() };
    },
    // a page of ctx signed in as email, by the one-time link the command line prints and its button
    async signIn(ctx, email) {
      const link = h.cli('user', 'link', email, '--base-url', h.base).trim().split('\n').pop();
      const page = await ctx.newPage();
      await page.goto(link);
      await Promise.all([page.waitForURL((u) => !u.pathname.startsWith('/signin/')),
        page.getByRole('button', { name: 'Sign me in' }).click()]);
      return page;
    },
    // a game made by the command line with a fixed seed, so every run plays the same positions
    newGame(game, players, seed) {
      const out = h.cli('game', 'create', game, ...players.flatMap((p) => ['--player', p]), '--seed', String(seed));
      const id = Number(/^game (\d+) created/m.exec(out)[1]);
      const tokens = out.split('\n').filter((l) => l.startsWith('seat ')).map((l) => l.split('\t').pop());
      assert.equal(tokens.length, players.length);
      return { id, tokens };
    },
  };

  before(async () => {
    mkdirSync(shots, { recursive: true });
    const portFile = join(dir, 'port');
    daemon = spawn(join(build, 'tests/turnpostd-test'),
      ['--db', db, '--listen', '127.0.0.1:0', '--port-file', portFile, '--quiet',
        ...(typeof daemonArgs === 'function' ? daemonArgs(h) : daemonArgs)],
      { stdio: ['ignore', 'ignore', 'inherit'] });
    const exited = new Promise((resolve) => daemon.once('exit', (code) => resolve(`turnpostd-test exited (${code})`)));
    // the command line makes the users while the daemon opens the same new database, as an operator's may
    if (setup) await setup(h);
    else h.cli('user', 'add', 'admin@example.org', '--admin', '--create');
    // the browser starts while the daemon opens its database
    launched = chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS })
      .then((b) => { h.browser = b; });
    const port = until('the port file', 20000, () => existsSync(portFile) && readFileSync(portFile, 'utf8').trim());
    port.catch(() => {});
    const first = await Promise.race([port, exited]);
    assert.match(String(first), /^\d+$/, String(first));
    h.base = `http://127.0.0.1:${first}`;
    await launched;
    if (ready) await ready(h);
  });

  after(async () => {
    if (planner) planner.stdin.end();
    if (launched) await launched.catch(() => {});
    if (h.browser) await h.browser.close();
    if (daemon && daemon.exitCode === null) {
      // wait until it has stopped writing (mail files) before removing its directory
      const exited = new Promise((resolve) => daemon.once('exit', resolve));
      daemon.kill('SIGTERM');
      await exited;
    }
    if (!process.env.KEEP_TEST_DIRS) rmSync(dir, { recursive: true, force: true });
  });
  return h;
}

/*
 * Playing by taps on the board (docs/web.md, "Tapping the board"). A test
 * knows the board only as id="board", the links and buttons inside it and
 * a button named confirm.
 *
 * look(page, first): one round trip that reads what a test checks of a
 * game page as loaded: its size, the alert, the status line, the taps
 * offered (href, accessible name: aria-label, else the SVG <title>; and
 * the point a finger taps when the part is on the screen and nothing
 * covers its centre) and the confirm button (its step and point). With
 * `first` (a turn's first screen) also where the board starts and the
 * controls ahead of the board and on the first screen.
 */
export function look(page, first = false) {
  return page.evaluate(([h, first]) => {
    const board = document.querySelector('#board');
    const nav = performance.getEntriesByType('navigation')[0];
    const point = (el) => {
      const r = el.getBoundingClientRect();
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      if (y < 0 || y >= innerHeight || x < 0 || x >= innerWidth) return null;
      const hit = document.elementFromPoint(x, y);
      return hit && (hit === el || el.contains(hit)) ? { x, y } : null;
    };
    const confirm = document.querySelector('#board button[name=confirm]');
    const seen = {
      bytes: nav ? nav.decodedBodySize : 0,
      alert: document.querySelector('[role=alert]')?.textContent || '',
      status: document.querySelector('p.status')?.textContent || '',
      taps: [...document.querySelectorAll('#board a.tap')].map((a) => ({
        href: a.getAttribute('href'),
        label: a.getAttribute('aria-label') || a.querySelector(':scope > title')?.textContent ||
          a.querySelector('title')?.textContent || '',
        at: point(a) })),
      confirm: confirm ? { move: confirm.form.querySelector('input[name=move]').value, text: confirm.textContent,
        at: point(confirm) } : null,
    };
    if (first) {
      const controls = [...document.querySelectorAll('main a, main button, main summary')];
      const onScreen = (el) => { const r = el.getBoundingClientRect(); return r.height > 0 && r.top < h; };
      // the controls a player meets before the board's first choice: those ahead of the board, as shown
      const ahead = board ? controls.filter((el) => !board.contains(el) &&
        (el.compareDocumentPosition(board) & Node.DOCUMENT_POSITION_FOLLOWING) && el.getClientRects().length) : controls;
      seen.top = board ? board.getBoundingClientRect().top : null;
      seen.ahead = ahead.length;
      seen.screen = controls.filter(onScreen).length;
    }
    return seen;
  }, [SCREEN.height, first]);
}

/*
 * The page of every legal step as a button: the game page itself, unless
 * the board offers taps; then the list is a page of its own, and its link
 * is followed. Returns whether it was followed.
 */
export async function toSteps(page) {
  const link = page.locator('.steps-link a');
  if (!(await link.count())) return false;
  await Promise.all([page.waitForURL(/\/steps\?seat=/), link.click()]);
  return true;
}

/*
 * Tap the k-th offered part of the board (k a number), or the confirm
 * button (k 'confirm'), with a finger, as `seen` (look's answer for this
 * page) shows them, and wait for the next page's document. A part off
 * the screen is first scrolled into view; the point at its centre must
 * hit it (nothing drawn over it). A touch at a point look() already
 * found costs one round trip, where a locator's click checks the same in
 * several and made a tap twice as slow.
 */
export async function tap(page, seen, k) {
  let at = k === 'confirm' ? seen.confirm?.at : seen.taps[k]?.at;
  if (!at) {
    at = await page.evaluate((k) => {
      const el = k === 'confirm' ? document.querySelector('#board button[name=confirm]')
        : document.querySelectorAll('#board a.tap')[k];
      if (!el) return { miss: `no ${k === 'confirm' ? 'confirm button' : `tap ${k}`} on the board` };
      el.scrollIntoView({ block: 'nearest' });
      const r = el.getBoundingClientRect();
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      const hit = document.elementFromPoint(x, y);
      if (!hit || !(hit === el || el.contains(hit)))
        return { miss: `the centre of ${el.getAttribute('href') || el.textContent} is covered by ${hit?.outerHTML.slice(0, 80)}` };
      return { x, y };
    }, k);
    assert.ok(!at.miss, at.miss);
  }
  await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), page.touchscreen.tap(at.x, at.y)]);
}

/*
 * The screenshots of docs/screenshots/: written only when SCREENSHOTS
 * names a directory (tests/e2e/run.sh --screenshots sets it to the
 * source tree's docs/screenshots). The phone's screen scrolled to the
 * board, as JPEG (a page of flat colours and text: some 60 KB).
 */
export async function docShot(page, name) {
  if (!process.env.SCREENSHOTS) return;
  // back where it was afterwards: the points look() found stay true
  const y = await page.evaluate(() => { const y = scrollY; document.querySelector('#board').scrollIntoView(); return y; });
  await page.screenshot({ path: join(process.env.SCREENSHOTS, `${name}.jpg`), type: 'jpeg', quality: 80 });
  await page.evaluate((y) => scrollTo(0, y), y);
}
