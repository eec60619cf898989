// static/sw.js: the service worker: shows turnpost's push messages and opens the game on a click
// SPDX-License-Identifier: MIT
'use strict';
self.addEventListener('push', function (ev) {
  var m = {};
  try {
    m = ev.data ? ev.data.json() : {};
  } catch (e) {
    m = { body: ev.data ? ev.data.text() : '' };
  }
  var url = typeof m.url === 'string' && m.url.indexOf(self.location.origin + '/') === 0 ? m.url : '/';
  ev.waitUntil(self.registration.showNotification(m.title || 'turnpost', {
    body: m.body || '',
    data: { url: url },
    // one notification per game and kind: a newer one replaces the last
    tag: (m.event || '') + ' ' + url
  }));
});
self.addEventListener('notificationclick', function (ev) {
  ev.notification.close();
  var url = (ev.notification.data && ev.notification.data.url) || '/';
  ev.waitUntil(self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(function (list) {
    for (var i = 0; i < list.length; i++)
      if (list[i].url === url && 'focus' in list[i]) return list[i].focus();
    return self.clients.openWindow(url);
  }));
});
