// tests/e2e/taps.test.mjs: a whole two-player Alien Frontiers game played only by taps on the board, on two phones
// SPDX-License-Identifier: MIT
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { harness, shots, SCREEN, look, tap, docShot } from './harness.mjs';

const h = harness('taps-af');

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

/*
 * Every turn opens on the phone of the player whose turn it is, and every
 * step is tapped there in the browser: the parts on the board, then the
 * confirm button. The turn's first screen is checked (the board's top
 * edge, the taps offered, the controls to choose from) and, after the
 * turn, the points on the board against the API's.
 */
test('a whole Alien Frontiers game by taps on the board, from two phones', { timeout: 900000 }, async () => {
  const g = h.newGame('alien-frontiers', ['Ann <ann@example.org>', 'Bob <bob@example.org>'], 7);
  const api = async (seat) => (await fetch(`${h.base}/api/v1/games/${g.id}`,
    { headers: { Authorization: `Bearer ${g.tokens[seat]}` } })).json();
  const phones = await h.seatPhones(g);
  const rand = prng(7);
  const stats = { turns: 0, steps: 0, taps: 0, offered: 0, maxOffered: 0, maxControls: 0, maxBytes: 0 };
  const T0 = Date.now();
  let game = await api(0);
  let over = false;

  for (let turn = 0; turn < 200 && game.status === 'active'; turn++) {
    const tapsBefore = stats.taps;
    const seat = game.active_seats[0];
    game = await api(seat);
    let me = game.view.player_state[seat], chosen = [], moves = game.move_count;
    const { page, url } = phones[seat];
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    // on the turn's first screen: the board's top edge shows, with a dozen controls or fewer to choose from
    let seen = await look(page, true);
    assert.ok(seen.top !== null && seen.top < SCREEN.height, `the board starts at ${seen.top}px`);
    const offered = seen.taps.length;
    assert.ok(offered >= 1 && offered <= 12, `${offered} taps offered at the start of a turn`);
    assert.ok(seen.screen <= 14, `${seen.screen} controls on the first screen at the start of a turn`);
    stats.maxOffered = Math.max(stats.maxOffered, offered);
    stats.offered += offered;
    stats.maxControls = Math.max(stats.maxControls, seen.screen);
    if (turn === 0) await page.screenshot({ path: join(shots, 'taps-af-turn.png') });
    stats.turns++;
    const shotAfter = stats.steps;
    // the turn: taps until the turn passes or the game ends
    for (let i = 0; i < 400; i++) {
      stats.maxBytes = Math.max(stats.maxBytes, seen.bytes);
      assert.ok(seen.bytes < 100 * 1024, `a page of ${seen.bytes} bytes`);
      if (seen.confirm) {
        const move = seen.confirm.move;
        if (turn === 4 && stats.steps === shotAfter) await docShot(page, 'alien-frontiers');
        await tap(page, seen, 'confirm');
        stats.taps++;
        stats.steps++;
        seen = await look(page);
        assert.equal(seen.alert, '', `confirming ${move}: refused`);
        game = await api(seat);
        assert.equal(game.move_count, moves + 1, 'the confirmed step was not stored');
        moves = game.move_count;
        me = game.view.player_state[seat];
        chosen = [];
        if (game.status !== 'active') { over = true; break; }
        if (game.active_seats[0] !== seat) break;
        continue;
      }
      const taps = seen.taps.map((t) => t.label);
      assert.ok(taps.length, 'nothing to tap and nothing to confirm on my turn');
      const best = Math.max(...taps.map((t) => score(t, me, chosen)));
      const choices = taps.map((t, k) => k).filter((k) => score(taps[k], me, chosen) === best);
      const k = choices[Math.floor(rand() * choices.length)];
      const die = /^(?:Choose|Add) your (\d)/.exec(taps[k]);
      if (die) chosen.push(die[1]);
      await tap(page, seen, k);
      stats.taps++;
      seen = await look(page);
      assert.equal(seen.alert, '', `tapping "${taps[k]}"`);
    }
    // the board shows the position the API gives: every player's points
    const board = await page.locator('#board svg').textContent();
    for (const p of game.view.player_state) assert.ok(board.includes(`${p.vp} VP`), `the board lacks ${p.vp} VP`);
    if (process.env.TAPS_DEBUG) console.log(`# turn ${turn} seat ${seat}: ${stats.taps - tapsBefore} taps, ${Date.now() - T0} ms`);
  }
  assert.ok(over, `the game did not end in ${stats.turns} turns`);
  const end = await api(0);
  assert.equal(end.status, 'finished');
  for (const { page, url } of phones) {
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    const seen = await look(page);
    assert.match(seen.status, /Game over/);
    // the final scores: the winner's first, then every player's, in the status and on the board
    for (const w of end.result.winners) assert.ok(seen.status.includes(`(${end.result.scores[w]})`), `the winner: ${seen.status}`);
    end.result.scores.forEach((s) => assert.ok(seen.status.includes(`(${s})`), `a score missing: ${seen.status}`));
    const board = await page.locator('#board svg').textContent();
    for (const p of end.view.player_state) assert.ok(board.includes(`${p.vp} VP`), `the board lacks ${p.vp} VP`);
    assert.equal(seen.taps.length, 0);
  }
  await phones[0].page.screenshot({ path: join(shots, 'taps-af-end.png') });
  const summary = { ...stats, moves: end.move_count, tapsPerTurn: +(stats.taps / stats.turns).toFixed(1),
    stepsPerTurn: +(stats.steps / stats.turns).toFixed(1), meanOffered: +(stats.offered / stats.turns).toFixed(1),
    seconds: Math.round((Date.now() - T0) / 1000) };
  writeFileSync(join(shots, 'taps-af.json'), JSON.stringify(summary, null, 1));
  console.log(`# ${JSON.stringify(summary)}`);
  for (const p of phones) await p.ctx.close();
});
