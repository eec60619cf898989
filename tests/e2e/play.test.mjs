// tests/e2e/play.test.mjs: two players sign in by email link and play Alien Frontiers turns from two phones
// SPDX-License-Identifier: MIT
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { harness, shots, until, toSteps } from './harness.mjs';

const XSS = '<script>window.pwned=1</script>"onerror=alert(1)';
const h = harness('play', {
  setup: (h) => h.cli('user', 'add', 'ann@example.org', '--name', 'Ann', '--create'),
  daemonArgs: (h) => ['--mail-dir', join(h.dir, 'mail')],
});
const mail = join(h.dir, 'mail');
let shot = 0;

// The messages the file transport wrote to `to` about `event`, quoted-printable undone.
function mails(to, event) {
  if (!existsSync(mail)) return [];
  return readdirSync(mail).filter((f) => f.endsWith('.eml'))
    .map((f) => readFileSync(join(mail, f), 'utf8').replace(/\r/g, '').replace(/=\n/g, '').replace(/=3D/g, '='))
    .filter((m) => m.includes(`X-Turnpost-Event: ${event}`) && new RegExp(`^To: .*<${to}>`, 'm').test(m));
}

// no payload may ever run: an alert (the phone's pages may open no dialog) or a global it sets fails the test
async function phone() {
  const ctx = await h.phone();
  return { ctx, page: await ctx.newPage() };
}

async function snap(page, name) {
  await page.screenshot({ path: join(shots, `play-${String(++shot).padStart(2, '0')}-${name}.png`), fullPage: true });
}

// Tap a step's button like a person: open its group if folded, then tap.
async function tapStep(page, value) {
  const button = page.locator(`button[name=move][value="${value.replace(/"/g, '\\"')}"]`).first();
  const details = button.locator('xpath=ancestor::details[1]');
  if ((await details.count()) && !(await details.evaluate((d) => d.open))) await details.locator('summary').first().click();
  await Promise.all([page.waitForLoadState('load'), button.click()]);
}

// Play one whole turn on this page: place every ship, then end the turn.
async function playTurn(page) {
  for (let i = 0; i < 40; i++) {
    await toSteps(page);
    const values = await page.locator('button[name=move]').evaluateAll((bs) => bs.map((b) => b.value));
    assert.ok(values.length, 'no step offered on my turn');
    const pick = values.find((v) => v.startsWith('dock ')) || values.find((v) => v === 'end') || values[0];
    await tapStep(page, pick);
    assert.equal(await page.getByRole('alert').count(), 0, `"${pick}" was refused`);
    if (pick === 'end') return;
  }
  throw new Error('the turn did not end in 40 steps');
}

test('sign in by link, start a game, play turns from two phones, chat, and stay safe', async () => {
  // Ann asks for a sign-in link and follows it from the email
  const ann = await phone();
  await ann.page.goto(`${h.base}/signin`);
  await snap(ann.page, 'signin');
  await ann.page.getByLabel('Your email address').fill('ann@example.org');
  await ann.page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await ann.page.getByRole('status').waitFor();
  const link = await until('the sign-in email', 20000,
    () => mails('ann@example.org', 'signin').map((m) => /https?:\/\/\S+\/signin\/tp_[A-Za-z0-9_-]{43}/.exec(m)?.[0]).find(Boolean));
  await ann.page.goto(link);
  await ann.page.getByRole('button', { name: 'Sign me in' }).click();
  await ann.page.getByRole('heading', { name: 'Your games' }).waitFor();
  await snap(ann.page, 'home');

  // a two-player Alien Frontiers game, the second player's name carrying a payload
  await ann.page.getByRole('link', { name: 'New game' }).click();
  await ann.page.getByLabel('Game', { exact: true }).selectOption('alien-frontiers');
  await ann.page.getByLabel('Player 2 name').fill(`Bob ${XSS}`);
  await ann.page.getByLabel('Player 2 email').fill('bob@example.org');
  await snap(ann.page, 'new-game');
  await ann.page.getByRole('button', { name: 'Create the game and invite' }).click();
  await ann.page.getByRole('heading', { name: /Alien Frontiers/ }).waitFor();
  const gameUrl = ann.page.url();
  const gameId = /\/games\/(\d+)/.exec(gameUrl)[1];
  assert.ok(await ann.page.locator('section.board svg').count());
  assert.ok((await ann.page.locator('ul.seats').textContent()).includes(`Bob ${XSS}`), 'the name is shown as text');

  // Bob follows the seat link in his invitation
  const seatLink = await until('the invitation', 20000,
    () => mails('bob@example.org', 'invite').map((m) => /https?:\/\/\S+\/s\/tp_[A-Za-z0-9_-]{43}/.exec(m)?.[0]).find(Boolean));
  const bob = await phone();
  await bob.page.goto(seatLink);
  await bob.page.getByRole('heading', { name: /Alien Frontiers/ }).waitFor();

  // several complete turns, alternating, each from the phone whose turn it is
  let board = await ann.page.locator('section.board svg').textContent();
  for (let turn = 0; turn < 6; turn++) {
    const me = turn % 2 === 0 ? ann : bob;
    await me.page.goto(`${h.base}/games/${gameId}`);
    await me.page.getByRole('heading', { name: 'Your move' }).waitFor();
    await playTurn(me.page);
    if (turn < 2) await snap(me.page, `turn-${turn + 1}`);
    const now = await me.page.locator('section.board svg').textContent();
    assert.notEqual(now, board, 'the board did not change');
    board = now;
  }

  // the history has both players' steps, readable
  await bob.page.goto(`${h.base}/games/${gameId}/history`);
  const steps = await bob.page.locator('ol.history li').allTextContents();
  assert.ok(steps.filter((s) => s.includes('end')).length >= 6, `history: ${steps.length} steps`);
  assert.ok(steps.some((s) => s.startsWith('Ann')) && steps.some((s) => s.includes(`Bob ${XSS}`)));
  await snap(bob.page, 'history');

  // a chat line with payloads is shown as text and does nothing
  await bob.page.goto(`${h.base}/games/${gameId}`);
  await bob.page.getByLabel('Message').fill(`hello ${XSS}`);
  await bob.page.getByRole('button', { name: 'Send message' }).click();
  await ann.page.goto(`${h.base}/games/${gameId}`);
  const chat = await ann.page.locator('section.chat li').last().textContent();
  assert.ok(chat.includes(`hello ${XSS}`), chat);
  assert.equal(await ann.page.evaluate(() => window.pwned), undefined);
  assert.equal(await ann.page.locator('section.chat script').count(), 0);
  await snap(ann.page, 'chat');

  // a POST without the form's CSRF token is refused and changes nothing
  const before = await ann.page.request.get(`${h.base}/games/${gameId}/history`).then((r) => r.text());
  const forged = await ann.page.request.post(`${h.base}/games/${gameId}/chat`,
    { form: { text: 'forged' }, maxRedirects: 0 });
  assert.equal(forged.status(), 403);
  const forgedMove = await ann.page.request.post(`${h.base}/games/${gameId}/move`,
    { form: { move: 'end', mc: '0' }, maxRedirects: 0 });
  assert.equal(forgedMove.status(), 403);
  await ann.page.reload();
  assert.ok(!(await ann.page.locator('section.chat').textContent()).includes('forged'));
  assert.equal(await ann.page.request.get(`${h.base}/games/${gameId}/history`).then((r) => r.text()), before);

  // the account page too
  await ann.page.goto(`${h.base}/account`);
  await snap(ann.page, 'account');
  await ann.ctx.close();
  await bob.ctx.close();
});
