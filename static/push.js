// static/push.js: the account page's "Notify me in this browser": a service worker and a push subscription
// SPDX-License-Identifier: MIT
'use strict';
(function () {
  var form = document.getElementById('push-form');
  if (!form || !('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return;
  var status = document.getElementById('push-status');
  form.hidden = false;
  // base64url to bytes (applicationServerKey) and back (the subscription's keys)
  function bytes(text) {
    var s = text.replace(/-/g, '+').replace(/_/g, '/');
    while (s.length % 4) s += '=';
    var raw = atob(s), out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }
  function text(buf) {
    var b = new Uint8Array(buf), s = '';
    for (var i = 0; i < b.length; i++) s += String.fromCharCode(b[i]);
    return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }
  document.getElementById('push-on').addEventListener('click', function () {
    status.textContent = 'Asking your browser…';
    Notification.requestPermission().then(function (answer) {
      if (answer !== 'granted') throw new Error('Notifications are blocked for this site: allow them in the browser\'s settings.');
      return navigator.serviceWorker.register('/sw.js', { scope: '/' });
    }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (reg) {
      return reg.pushManager.getSubscription().then(function (old) {
        return old || reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(form.dataset.key) });
      });
    }).then(function (sub) {
      // a plain form POST with the page's CSRF token: same origin, nothing the page's policy forbids
      form.elements.endpoint.value = sub.endpoint;
      form.elements.p256dh.value = text(sub.getKey('p256dh'));
      form.elements.auth.value = text(sub.getKey('auth'));
      status.textContent = 'Saving…';
      form.submit();
    }).catch(function (err) {
      status.textContent = (err && err.message) || String(err);
    });
  });
})();
