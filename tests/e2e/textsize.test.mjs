// tests/e2e/textsize.test.mjs: every text of every board is at least 11 CSS pixels on a 390x844 phone, without zoom
// SPDX-License-Identifier: MIT
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { harness, shots, SCREEN } from './harness.mjs';

// the smallest text a phone player reads without zooming, in CSS pixels
const MIN_TEXT = 11;
// a text squeezed to fit its box keeps at least this share of its natural width
const MIN_SQUEEZE = 0.75;
const h = harness('text');

// Long names on purpose: the board must fit them without shrinking its text.
async function newGame(game, n, seed) {
  const names = ['Yara Okonkwo-Lindqvist', 'Zed', 'Bob <b>&', 'Di'];
  return h.newGame(game, names.slice(0, n).map((name, i) => `${name} <${game}-text-${seed}-${i}@example.org>`), seed);
}

const api = (...args) => h.api(...args);

// The bot's step for the seat on turn, played through the API. Returns the game as it stands after.
async function botStep(g) {
  const { json: now } = await api(g, 0, '');
  if (now.status !== 'active') return now;
  const seat = now.active_seats[0];
  const { text } = await h.plan(g.id, seat);
  const res = await api(g, seat, '/moves', { moves: [text] });
  assert.equal(res.status, 200, `${text}: ${JSON.stringify(res.json)}`);
  return res.json;
}

/*
 * Every text of the board as drawn: its font size in CSS pixels (the
 * computed size times the SVG's scale on the page), and for one squeezed to
 * a width (textLength) the share of its natural width it keeps. Also every
 * tap's box, and where the board starts.
 */
function measure(page) {
  return page.evaluate(() => {
    const svg = document.querySelector('#board svg');
    const box = svg.getBoundingClientRect();
    const scale = box.width / svg.viewBox.baseVal.width;
    const texts = [];
    for (const t of svg.querySelectorAll('text, tspan')) {
      const own = [...t.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.data).join('').trim();
      if (!own) continue;
      let squeeze = 1;
      if (t.hasAttribute('textLength')) {
        // the natural width: the same text without textLength, measured beside it
        const copy = t.cloneNode(true);
        copy.removeAttribute('textLength');
        copy.removeAttribute('lengthAdjust');
        t.parentNode.appendChild(copy);
        const natural = copy.getComputedTextLength();
        copy.remove();
        squeeze = natural > 0 ? Math.min(1, t.textLength.baseVal.value / natural) : 1;
      }
      const r = t.getBoundingClientRect();
      texts.push({ text: own, px: parseFloat(getComputedStyle(t).fontSize) * scale, squeeze,
        out: r.right > box.right + 0.5 || r.left < box.left - 0.5 });
    }
    const taps = [...svg.querySelectorAll('a.tap')].map((a) => {
      const r = a.getBoundingClientRect();
      return { name: a.querySelector('title')?.textContent || a.getAttribute('aria-label') || '', w: r.width, h: r.height };
    });
    const nav = performance.getEntriesByType('navigation')[0];
    return { texts, taps, top: document.querySelector('#board').getBoundingClientRect().top,
      bytes: nav ? nav.decodedBodySize : 0 };
  });
}

const phone = () => h.phone({ deviceScaleFactor: 1 });

/*
 * One seat's page: every text of the board at least MIN_TEXT pixels, not
 * squeezed past MIN_SQUEEZE and within the board's edges, every tap at
 * least 44 pixels each way, the page under kb KB, and on your turn the
 * board's top within the first screen. Then, on your turn, the same after
 * the first tap of a step. Returns the number of texts seen and the
 * heaviest page's bytes.
 */
async function checkSeat(g, seat, at, shot, kb) {
  const ctx = await phone();
  const page = await ctx.newPage();
  const seen = { texts: 0, bytes: 0 };
  await page.goto(`${h.base}/s/${g.tokens[seat]}`);
  for (let tapped = 0; tapped < 2; tapped++) {
    const m = await measure(page);
    const where = `${at}, seat ${seat}${tapped ? ', after a tap' : ''}`;
    const small = m.texts.filter((t) => t.px < MIN_TEXT - 0.01).map((t) => `"${t.text}" ${t.px.toFixed(2)}px`);
    assert.deepEqual(small, [], `${where}: board text under ${MIN_TEXT} CSS pixels`);
    const squeezed = m.texts.filter((t) => t.squeeze < MIN_SQUEEZE).map((t) => `"${t.text}" to ${(t.squeeze * 100).toFixed(0)}%`);
    assert.deepEqual(squeezed, [], `${where}: board text squeezed`);
    const out = m.texts.filter((t) => t.out).map((t) => `"${t.text}"`);
    assert.deepEqual(out, [], `${where}: board text past the board's edge`);
    const tiny = m.taps.filter((t) => t.w < 44 || t.h < 44).map((t) => `${t.name} ${t.w.toFixed(0)}x${t.h.toFixed(0)}`);
    assert.deepEqual(tiny, [], `${where}: taps under 44 CSS pixels`);
    assert.ok(m.bytes > 0 && m.bytes < kb * 1024, `${where}: the page weighs ${m.bytes} bytes`);
    if (m.bytes > seen.bytes) seen.bytes = m.bytes;
    seen.texts += m.texts.length;
    if (!m.taps.length) break;
    assert.ok(m.top < SCREEN.height, `${where}: the board starts at ${m.top}px`);
    if (shot && !tapped) await page.screenshot({ path: join(shots, `${shot}.png`), fullPage: true });
    await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), page.locator('#board a.tap').first().click()]);
  }
  await ctx.close();
  return seen;
}

/*
 * A game played by its bot from the set-up to the end, with every seat's
 * board checked at the set-up, every `every` steps and at the end.
 */
async function wholeGame(t, game, n, seed, every, kb) {
  const g = await newGame(game, n, seed);
  let now = (await api(g, 0, '')).json, steps = 0, looks = 0, texts = 0, bytes = 0;
  while (true) {
    if (steps % every === 0 || now.status !== 'active') {
      for (let s = 0; s < n; s++) {
        const seen = await checkSeat(g, s, `${game} step ${steps}`,
          looks === 1 && s === now.active_seats?.[0] ? `text-${game}` : '', kb);
        texts += seen.texts;
        bytes = Math.max(bytes, seen.bytes);
      }
      looks++;
    }
    if (now.status !== 'active') break;
    now = await botStep(g);
    steps++;
    assert.ok(steps < 2000, `${game}: no end after ${steps} steps`);
  }
  assert.equal(now.status, 'finished');
  assert.ok(looks >= 4 && texts > 500, `${game}: ${looks} looks, ${texts} texts`);
  t.diagnostic(`${game}: ${steps} steps, ${looks} looks, ${texts} texts measured, heaviest page ${bytes} bytes`);
}

test('Alien Frontiers: every board text is at least 11 CSS pixels, from the set-up to the end', async (t) => {
  await wholeGame(t, 'alien-frontiers', 2, 11, 25, 30);
});

test('Space Station Phoenix: every board text is at least 11 CSS pixels, from the set-up to the end', async (t) => {
  await wholeGame(t, 'space-station-phoenix', 3, 12, 70, 40);
});

test('Starship Merchants: every board text is at least 11 CSS pixels, from the set-up to the end', async (t) => {
  await wholeGame(t, 'starship-merchants', 3, 13, 60, 30);
});
