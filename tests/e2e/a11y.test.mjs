// tests/e2e/a11y.test.mjs: axe-core on every game page (player on turn, player waiting, spectator), and a turn by keyboard
// SPDX-License-Identifier: MIT
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { harness } from './harness.mjs';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const h = harness('a11y');

// axe runs inside the page: the page's own Content-Security-Policy would refuse the injected script.
const phone = () => h.phone({ bypassCSP: true });

async function newGame(game, n, seed = 3) {
  const names = ['Yara', 'Zed', 'Cy', 'Di'];
  return h.newGame(game, names.slice(0, n).map((name, i) => `${name} <${game}-a11y-${i}@example.org>`), seed);
}

async function actingSeat(g) {
  const res = await fetch(`${h.base}/api/v1/games/${g.id}`, { headers: { Authorization: `Bearer ${g.tokens[0]}` } });
  return (await res.json()).active_seats[0];
}

// The serious and critical violations of a page, as "rule: target" lines.
async function violations(page) {
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.slice(0, 3).map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} ${n.failureSummary || ''}`));
  });
  return result;
}

async function check(url, what) {
  const ctx = await phone();
  const page = await ctx.newPage();
  await page.goto(url);
  const found = await violations(page);
  assert.deepEqual(found, [], `${what}: ${found.join('\n')}`);
  await ctx.close();
}

test('the check finds what it should: a planted image without a text alternative', async () => {
  const g = await newGame('alien-frontiers', 2, 4);
  const ctx = await phone();
  const page = await ctx.newPage();
  await page.goto(`${h.base}/s/${g.tokens[0]}`);
  await page.evaluate(() => document.querySelector('main').insertAdjacentHTML('beforeend', '<img src="/x.png">'));
  const found = await violations(page);
  assert.ok(found.some((v) => v.startsWith('image-alt')), found.join('\n'));
  await ctx.close();
});

for (const game of ['alien-frontiers', 'space-station-phoenix', 'starship-merchants']) {
  test(`${game}: no serious or critical axe-core violations for the player on turn, the other and a spectator`, async () => {
    const g = await newGame(game, 2);
    const on = await actingSeat(g);
    await check(`${h.base}/s/${g.tokens[on]}`, `${game}, the player on turn`);
    await check(`${h.base}/s/${g.tokens[1 - on]}`, `${game}, the player waiting`);
    // an admin sees the game as a spectator (signed in by the one-time link the CLI prints)
    const ctx = await phone();
    const page = await h.signIn(ctx, 'admin@example.org');
    await page.goto(`${h.base}/games/${g.id}`);
    const found = await violations(page);
    assert.deepEqual(found, [], `${game}, a spectator: ${found.join('\n')}`);
    await ctx.close();
  });
}

// The smallest text of the board in CSS pixels as drawn: its font size scaled by the drawn width of the SVG.
async function smallestBoardText(page) {
  return page.evaluate(() => {
    const svg = document.querySelector('#board svg');
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    let min = Infinity;
    for (const t of svg.querySelectorAll('text, tspan')) {
      const size = parseFloat(getComputedStyle(t).fontSize);
      if (t.textContent.trim() && size * scale < min) min = size * scale;
    }
    return min;
  });
}

for (const game of ['alien-frontiers', 'space-station-phoenix', 'starship-merchants']) {
  test(`${game}: the zoom without script makes every board text at least 11 CSS pixels`, async () => {
    const g = await newGame(game, 2, 5);
    const ctx = await phone();
    const page = await ctx.newPage();
    await page.goto(`${h.base}/s/${g.tokens[0]}`);
    await page.locator('label[for=board-zoom]').click();
    const min = await smallestBoardText(page);
    assert.ok(min >= 11, `the smallest text of the zoomed board is ${min.toFixed(1)}px`);
    // the page itself stays as wide as the phone: the board scrolls in its frame
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `page is ${width}px wide`);
    await ctx.close();
  });
}

for (const game of ['space-station-phoenix', 'starship-merchants']) {
  test(`${game}: a whole step by keyboard alone, tap by tap, then confirm`, async () => {
    const g = await newGame(game, 2, 6);
    const on = await actingSeat(g);
    const ctx = await phone();
    const page = await ctx.newPage();
    await page.goto(`${h.base}/s/${g.tokens[on]}`);
    const before = (await (await fetch(`${h.base}/api/v1/games/${g.id}`,
      { headers: { Authorization: `Bearer ${g.tokens[0]}` } })).json()).move_count;
    for (let taps = 0; taps < 12; taps++) {
      // Tab until a tap on the board or the confirm button has the focus, then press Enter
      let what = '';
      for (let i = 0; i < 200 && !what; i++) {
        await page.keyboard.press('Tab');
        what = await page.evaluate(() => {
          const el = document.activeElement;
          if (!el) return '';
          if (el.closest && el.closest('#board a.tap')) return 'tap';
          if (el.matches && el.matches('button[name=confirm]')) return 'confirm';
          return '';
        });
      }
      assert.ok(what, 'no tap and no confirm button reachable by Tab');
      await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
      if (what === 'confirm') break;
    }
    const after = (await (await fetch(`${h.base}/api/v1/games/${g.id}`,
      { headers: { Authorization: `Bearer ${g.tokens[0]}` } })).json()).move_count;
    assert.ok(after > before, 'the step was not stored');
    await ctx.close();
  });
}
