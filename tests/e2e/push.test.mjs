// tests/e2e/push.test.mjs: the account page's "Notify me in this browser" in a real browser (Debian's Chromium)
// SPDX-License-Identifier: MIT
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { harness } from './harness.mjs';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

// RFC 8291's example browser key and secret, as a browser's subscription would carry them
const P256DH = 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4';
const AUTH = 'BTBZMqHH6r4Tts7J_aSIgg';

let token;
const h = harness('push', {
  setup: (h) => { token = h.cli('user', 'add', 'ann@example.org', '--name', 'Ann', '--create').trim().split('\n').pop(); },
  // the subscriptions below name a push service on loopback, which only this setting lets be saved
  daemonArgs: ['--allow-loopback-destinations'],
});
const signedIn = (ctx) => h.signIn(ctx, 'ann@example.org');

test('the service worker registers from /sw.js with the whole site as its scope', async () => {
  const ctx = await h.browser.newContext();
  const page = await signedIn(ctx);
  await page.goto(`${h.base}/account`);
  const got = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    await navigator.serviceWorker.ready;
    return { scope: reg.scope, script: (reg.active || reg.installing || reg.waiting).scriptURL };
  });
  assert.equal(got.scope, `${h.base}/`);
  assert.equal(got.script, `${h.base}/sw.js`);
  await ctx.close();
});

test('the button subscribes this browser and the account page lists it, removable', async () => {
  const ctx = await h.browser.newContext();
  await ctx.grantPermissions(['notifications'], { origin: h.base });
  // the browser's push service is out of reach here: its subscribe() answers with a subscription of our own,
  // after checking that the page asks with the server's key
  await ctx.addInitScript(({ p256dh, auth }) => {
    const bytes = (t) => Uint8Array.from(atob(t.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - t.length % 4) % 4)),
      (c) => c.charCodeAt(0)).buffer;
    PushManager.prototype.getSubscription = async () => null;
    PushManager.prototype.subscribe = async function (opts) {
      // kept over the form's POST and the page it brings back
      sessionStorage.setItem('asked', JSON.stringify({ userVisibleOnly: opts.userVisibleOnly,
        key: Array.from(new Uint8Array(opts.applicationServerKey)) }));
      return { endpoint: 'https://127.0.0.1:8443/wpush/e2e-device',
        getKey: (name) => bytes(name === 'p256dh' ? p256dh : auth) };
    };
  }, { p256dh: P256DH, auth: AUTH });
  const errors = [];
  const page = await signedIn(ctx);
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${h.base}/account`);
  const button = page.getByRole('button', { name: 'Notify me in this browser' });
  await button.waitFor({ state: 'visible' });
  await button.click();
  await page.waitForURL(/\/account#notify$/);
  assert.deepEqual(errors, []);
  // asked for user-visible messages with the server's VAPID key
  const key = (await (await fetch(`${h.base}/api/v1/me/push-subscriptions`,
    { headers: { Authorization: `Bearer ${token}` } })).json()).vapid_public_key;
  const asked = JSON.parse(await page.evaluate(() => sessionStorage.getItem('asked')));
  assert.equal(asked.userVisibleOnly, true);
  assert.equal(Buffer.from(asked.key).toString('base64url'), key);
  // stored with the keys the browser gave, named after it
  const list = await (await fetch(`${h.base}/api/v1/me/push-subscriptions`,
    { headers: { Authorization: `Bearer ${token}` } })).json();
  assert.equal(list.subscriptions.length, 1);
  assert.equal(list.subscriptions[0].service, 'https://127.0.0.1:8443');
  assert.equal(list.subscriptions[0].label, 'Chrome on Linux');
  // listed on the page, without its endpoint, and removed by its button
  const item = page.locator('.push-list li');
  await item.first().waitFor();
  assert.match(await item.first().textContent(), /https:\/\/127\.0\.0\.1:8443/);
  assert.ok(!(await page.content()).includes('e2e-device'));
  await item.first().getByRole('button', { name: 'Remove' }).click();
  await page.waitForURL(/\/account#notify$/);
  assert.equal(await page.locator('.push-list li').count(), 0);
  await ctx.close();
});

test('the account page with a browser listed has no serious or critical axe-core violations', async () => {
  const res = await fetch(`${h.base}/api/v1/me/push-subscriptions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ endpoint: 'https://127.0.0.1:8443/wpush/a11y', keys: { p256dh: P256DH, auth: AUTH },
      label: 'Firefox on Android' }),
  });
  assert.equal(res.status, 201);
  // axe runs inside the page: the page's own Content-Security-Policy would refuse the injected script
  const ctx = await h.phone({ deviceScaleFactor: 1, bypassCSP: true });
  const page = await signedIn(ctx);
  await page.goto(`${h.base}/account`);
  await page.getByRole('button', { name: 'Notify me in this browser' }).waitFor({ state: 'visible' });
  await page.locator('.push-list li').first().waitFor();
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.slice(0, 3).map((n) => `${v.id}: ${n.target.join(' ')}`));
  });
  assert.deepEqual(found, []);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `the account page is ${width}px wide`);
  await ctx.close();
});
