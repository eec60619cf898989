// tests/e2e/weight.test.mjs: every game page of a bot game weighs under 30 KB, for every seat at every step
// SPDX-License-Identifier: MIT
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness } from './harness.mjs';

// the most a game page may weigh (issue 18: the benched page under 30 KB; here every page of every game)
const LIMIT = 30 * 1024;
// the page of every legal step (a list too long for the game page) stays a page, not a download
const LIST_LIMIT = 100 * 1024;
const h = harness('weight');

const api = (...args) => h.api(...args);

// A seat's session, as its phone gets one from the seat link of a notification.
async function session(token) {
  const res = await fetch(`${h.base}/s/${token}`, { redirect: 'manual' });
  const cookie = /tp_session=[^;]+/.exec(res.headers.get('set-cookie') || '');
  assert.ok(cookie, `no session from the seat link: ${res.status}`);
  return cookie[0];
}

async function get(cookie, path) {
  const res = await fetch(`${h.base}${path}`, { headers: { Cookie: cookie } });
  assert.equal(res.status, 200, path);
  return res.text();
}

const kb = (bytes) => (bytes / 1024).toFixed(1);

/*
 * A game of n players played by its bot (the browser tests' plan, level 2)
 * from the set-up to the end. At every step each seat's game page is read
 * as its phone reads it, and the acting seat's page again after each tap
 * of the bot's step, as the board builds it (?t= with the parts chosen so
 * far). Each must weigh under LIMIT. A page that links its legal steps
 * away (a list too long for it) must show them there, every one, on a page
 * under LIST_LIMIT.
 */
async function weigh(t, game, n, seed) {
  const names = ['Yara Okonkwo-Lindqvist', 'Zed', 'Bob <b>&', 'Di'];
  const g = h.newGame(game, names.slice(0, n).map((name, i) => `${name} <${game}-weight-${i}@example.org>`), seed);
  const cookies = [];
  for (const token of g.tokens) cookies.push(await session(token));
  const seen = { pages: 0, bytes: 0, max: 0, at: '', lists: 0, listMax: 0 };
  const weighPage = async (seat, query, at) => {
    const html = await get(cookies[seat], `/games/${g.id}${query}`);
    const bytes = Buffer.byteLength(html);
    assert.ok(bytes < LIMIT, `${game}, ${at}: the page weighs ${bytes} bytes`);
    seen.pages++;
    seen.bytes += bytes;
    if (bytes > seen.max) Object.assign(seen, { max: bytes, at });
    const link = /class="steps-link"><a href="([^"]+)"/.exec(html);
    if (link) {
      const list = await get(cookies[seat], link[1].replace(/&amp;/g, '&'));
      const { json } = await api(g, seat, '/legal');
      const buttons = list.match(/<button name="move" value=/g) || [];
      assert.equal(buttons.length, json.moves.length, `${game}, ${at}: the list holds every legal step`);
      assert.ok(Buffer.byteLength(list) < LIST_LIMIT, `${game}, ${at}: the list weighs ${Buffer.byteLength(list)} bytes`);
      seen.lists++;
      seen.listMax = Math.max(seen.listMax, Buffer.byteLength(list));
    }
  };
  let now = (await api(g, 0, '')).json, steps = 0;
  while (true) {
    for (let s = 0; s < n; s++) await weighPage(s, '', `step ${steps}, seat ${s}`);
    if (now.status !== 'active') break;
    const seat = now.active_seats[0];
    const { text, parts } = await h.plan(g.id, seat);
    for (let k = 1; k < parts.length; k++)
      await weighPage(seat, `?seat=${seat}&t=${parts.slice(0, k).join('.')}`, `step ${steps}, seat ${seat}, tap ${k}`);
    const res = await api(g, seat, '/moves', { moves: [text] });
    assert.equal(res.status, 200, `${text}: ${JSON.stringify(res.json)}`);
    now = res.json;
    steps++;
    assert.ok(steps < 2000, `${game}: no end after ${steps} steps`);
  }
  assert.equal(now.status, 'finished');
  t.diagnostic(`${game}, ${n} players: ${steps} steps, ${seen.pages} pages, average ${kb(seen.bytes / seen.pages)} KB, ` +
    `heaviest ${kb(seen.max)} KB (${seen.at}); ${seen.lists} lists of steps on their own page, heaviest ${kb(seen.listMax)} KB`);
}

test('Alien Frontiers: every page of a game weighs under 30 KB', async (t) => {
  await weigh(t, 'alien-frontiers', 2, 11);
});

test('Space Station Phoenix: every page of a game weighs under 30 KB', async (t) => {
  await weigh(t, 'space-station-phoenix', 2, 12);
});

test('Starship Merchants: every page of a game weighs under 30 KB', async (t) => {
  await weigh(t, 'starship-merchants', 3, 13);
});
