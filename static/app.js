// static/app.js: small progressive enhancements; every page works without it
// SPDX-License-Identifier: MIT
'use strict';
document.addEventListener('submit', function (ev) {
  // one tap, one submission: phones double-submit
  var form = ev.target;
  if (form.dataset.sent) { ev.preventDefault(); return; }
  form.dataset.sent = '1';
  setTimeout(function () { delete form.dataset.sent; }, 5000);
});
document.addEventListener('DOMContentLoaded', function () {
  var err = document.getElementById('error');
  if (err) err.scrollIntoView({ block: 'center' });
});
