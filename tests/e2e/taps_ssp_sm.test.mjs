// tests/e2e/taps_ssp_sm.test.mjs: whole Space Station Phoenix and Starship Merchants games played by taps on the board, two phones
// SPDX-License-Identifier: MIT
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { harness, shots, SCREEN, look, tap, docShot } from './harness.mjs';

const h = harness('taps-ssp-sm');

async function api(g, path) {
  const res = await fetch(`${h.base}/api/v1/games/${g.id}${path}`, { headers: { Authorization: `Bearer ${g.tokens[0]}` } });
  return res.json();
}

/*
 * A whole game, every step built by taps on the board and confirmed on the
 * phone of the seat whose decision it is. The test player follows the plan
 * of the game's bot (level 2) but taps only what the board offers: each
 * planned part must be a link on the board, and the confirm button must
 * hold the planned step.
 *
 * Every turn opens on the player's phone, where the board must start within
 * the first screen, with at most a dozen controls ahead of it; every tap of
 * the turn is a touch on that phone's page. A turn starts with at most a
 * dozen taps offered on the board (its tappable parts in #board), and so
 * does every later decision where limits.decision says so; the average and
 * the most are printed.
 */
async function play(game, seed, names, limits) {
  const T0 = Date.now();
  const g = h.newGame(game, [`Yara <${game}-y@example.org>`, `Zed <${game}-z@example.org>`], seed);
  const ph = await h.seatPhones(g);
  const planned = [];
  const stats = { turns: 0, steps: 0, taps: 0, offered: 0, maxOffered: 0, maxAhead: 0, maxScreen: 0, maxBytes: 0,
    decisionOffered: 0, maxDecisionOffered: 0 };
  const ms = { open: 0, taps: 0, plan: 0, api: 0 };
  const clock = async (k, p) => { const t = Date.now(); const r = await p; ms[k] += Date.now() - t; return r; };
  const turnTaps = [];
  let last = -1, now = await api(g, '');
  while (now.status === 'active') {
    const seat = now.active_seats[0];
    const phone = ph[seat];
    const { page } = phone;
    let seen;
    const opened = seat !== last;
    if (opened) {
      // a new turn on this player's phone: the board at the top, few controls ahead of it, the player called by name
      seen = await clock('open', page.goto(phone.url, { waitUntil: 'domcontentloaded' }).then(() => look(page, true)));
      stats.turns++;
      turnTaps.push(0);
      const at = `${game} turn ${stats.turns} (${seen.status})`;
      assert.ok(seen.top !== null && seen.top < SCREEN.height, `${at}: the board starts at ${seen.top}px`);
      assert.ok(seen.ahead <= limits.ahead, `${at}: ${seen.ahead} controls ahead of the board`);
      assert.ok(seen.taps.length >= 1, `${at}: nothing to tap`);
      assert.ok(seen.status.includes(names[seat]) || /Diplomacy/.test(seen.status), `prompt: ${seen.status}`);
      assert.ok(!/Player \d|@\d|\bp\d\b/.test(seen.status), `prompt: ${seen.status}`);
      stats.offered += seen.taps.length;
      stats.maxOffered = Math.max(stats.maxOffered, seen.taps.length);
      stats.maxAhead = Math.max(stats.maxAhead, seen.ahead);
      stats.maxScreen = Math.max(stats.maxScreen, seen.screen);
      if (stats.turns <= 2) {
        // each tap is a link named by what it does (the accessibility tree's name)
        const label = seen.taps[0].label;
        assert.ok(await page.getByRole('link', { name: label, exact: true }).count() > 0, `no link named ${label}`);
      }
      if (stats.turns === limits.shot) await page.screenshot({ path: join(shots, `taps-${game}-turn.png`) });
      last = seat;
    } else {
      // the same player's next step, on the page the last confirm answered with
      seen = await look(page);
    }
    const { text, parts } = await clock('plan', h.plan(g.id, seat));
    planned.push(text);
    // the decision's first taps: what the board offers before anything is chosen
    assert.ok(seen.taps.length <= (opened ? limits.offered : limits.decision ?? Infinity),
      `${game} step ${stats.steps + 1} (${text}): ${seen.taps.length} taps offered at the decision's start`);
    stats.decisionOffered += seen.taps.length;
    stats.maxDecisionOffered = Math.max(stats.maxDecisionOffered, seen.taps.length);
    const t = Date.now();
    for (let i = 0; i <= parts.length; i++) {
      stats.maxBytes = Math.max(stats.maxBytes, seen.bytes);
      assert.ok(seen.bytes < 100 * 1024, `${game}: a page of ${seen.bytes} bytes`);
      if (i === parts.length) break;
      const want = `&t=${parts.slice(0, i + 1).join('.')}`;
      const k = seen.taps.findIndex((t) => t.href.endsWith(want));
      assert.ok(k >= 0, `${game}: ${text}: the board does not offer ${parts[i]} (offered: ${seen.taps.map((t) => t.href).join(' ')})`);
      // a tap is named by what it does, with names, never seat marks
      assert.ok(seen.taps[k].label.length > 2 && !/@\d/.test(seen.taps[k].label), `a tap without a name: ${seen.taps[k].label}`);
      await tap(page, seen, k);
      seen = await look(page);
      assert.equal(seen.alert, '', `${game}: tapping ${parts[i]}`);
    }
    assert.ok(seen.confirm, `${game}: no confirm button after the taps of ${text}`);
    assert.equal(seen.confirm.move, text);
    assert.ok(!/@\d/.test(seen.confirm.text), seen.confirm.text);
    if (stats.turns === limits.shot && turnTaps[turnTaps.length - 1] === 0) await docShot(page, game);
    await tap(page, seen, 'confirm');
    ms.taps += Date.now() - t;
    const n = parts.length + 1;
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
    meanOffered: +(stats.offered / stats.turns).toFixed(1),
    meanDecisionOffered: +(stats.decisionOffered / stats.steps).toFixed(1), ms,
    seconds: Math.round((Date.now() - T0) / 1000) };
  writeFileSync(join(shots, `taps-${game}.json`), JSON.stringify(summary, null, 1));
  console.log(`# ${JSON.stringify(summary)}`);
  return summary;
}

// Seeds of short games among the first fifteen the bot plays (87 and 56 turns). The two games run at
// once, each on its own two phones: each step waits on the browser, the server or the planner in turn.
describe('whole games by taps', { concurrency: true }, () => {
  it('a whole Space Station Phoenix game by taps on the board, from two phones', { timeout: 900000 }, async () => {
    await play('space-station-phoenix', 14, ['Yara', 'Zed'], { ahead: 12, offered: 12, decision: 12, shot: 12, steps: 1000 });
  });

  it('a whole Starship Merchants game by taps on the board, from two phones', { timeout: 900000 }, async () => {
    await play('starship-merchants', 10, ['Yara', 'Zed'], { ahead: 12, offered: 12, shot: 12, steps: 1000 });
  });
});
