// Tabs for examples in several languages (WAI-ARIA's tabs pattern). Every group with
// the same data-sk-group shows the same language, and the choice is kept in
// localStorage so that every page opens on it. Without JavaScript every panel shows.
(function () {
  'use strict';
  var STORE = 'samekey-tab-';

  function remembered(group) {
    try { return window.localStorage.getItem(STORE + group); } catch (e) { return null; }
  }
  function remember(group, key) {
    try { window.localStorage.setItem(STORE + group, key); } catch (e) { /* private mode */ }
  }

  // Shows `key` in every group of this name that has it (a group without it keeps its own).
  function select(group, key, focus) {
    document.querySelectorAll('.sk-tabs[data-sk-group="' + group + '"]').forEach(function (tabs) {
      show(tabs, key, focus);
    });
  }

  function show(tabs, key, focus) {
    var buttons = tabs.querySelectorAll(':scope > [role="tablist"] > [role="tab"]');
    if (!Array.prototype.some.call(buttons, function (b) { return b.dataset.skKey === key; })) return;
    buttons.forEach(function (button) {
      var on = button.dataset.skKey === key;
      button.setAttribute('aria-selected', on ? 'true' : 'false');
      button.tabIndex = on ? 0 : -1;
      document.getElementById(button.getAttribute('aria-controls')).hidden = !on;
      if (on && focus === tabs) button.focus();
    });
  }

  var count = 0;
  document.querySelectorAll('.sk-tabs').forEach(function (tabs) {
    var group = tabs.dataset.skGroup || 'default';
    var list = document.createElement('div');
    list.setAttribute('role', 'tablist');
    list.className = 'sk-tablist';
    var panels = tabs.querySelectorAll(':scope > .sk-tab');
    panels.forEach(function (panel) {
      var n = ++count;
      var button = document.createElement('button');
      button.type = 'button';
      button.id = 'sk-tab-' + n;
      button.setAttribute('role', 'tab');
      button.setAttribute('aria-controls', 'sk-panel-' + n);
      button.dataset.skKey = panel.dataset.skKey;
      button.textContent = panel.dataset.skLabel || panel.dataset.skKey;
      button.addEventListener('click', function () {
        remember(group, panel.dataset.skKey);
        select(group, panel.dataset.skKey, null);
      });
      list.appendChild(button);
      panel.id = 'sk-panel-' + n;
      panel.setAttribute('role', 'tabpanel');
      panel.setAttribute('aria-labelledby', button.id);
      panel.tabIndex = 0;
    });
    list.addEventListener('keydown', function (event) {
      var buttons = Array.prototype.slice.call(list.querySelectorAll('[role="tab"]'));
      var at = buttons.indexOf(document.activeElement);
      if (at < 0) return;
      var to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: buttons.length - 1 }[event.key];
      if (to === undefined) return;
      event.preventDefault();
      // The key is the tabs': mdBook's arrow-key chapter navigation must not see it too.
      event.stopPropagation();
      var key = buttons[(to + buttons.length) % buttons.length].dataset.skKey;
      remember(group, key);
      select(group, key, tabs);
    });
    tabs.insertBefore(list, tabs.firstChild);
    var first = panels.length ? panels[0].dataset.skKey : null;
    // The remembered language, else this group's first; only this group is set here: a
    // group of one language (Java alone) must not switch the others (the print page holds
    // every page's groups).
    show(tabs, remembered(group) || first, null);
    // A remembered key this group lacks leaves it unselected: fall back to its first.
    if (!list.querySelector('[aria-selected="true"]') && first) show(tabs, first, null);
  });
})();
