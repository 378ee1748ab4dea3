// The copy button of an interactive Python session (```pycon) copies what a reader types:
// the lines after `>>> ` and `... `, without the prompts or the printed results, so that
// the copy runs as a script or pastes into a REPL. mdBook's clipboard.js would copy the
// prompts too; this runs first (capture) and stops it.
(function () {
  'use strict';
  function typed(text) {
    return text.split('\n').filter(function (line) {
      return /^(>>>|\.\.\.)( |$)/.test(line);
    }).map(function (line) { return line.slice(4); }).join('\n') + '\n';
  }
  window.addEventListener('click', function (event) {
    var button = event.target.closest && event.target.closest('.clip-button');
    var code = button && button.closest('pre') && button.closest('pre').querySelector('code.language-pycon');
    if (!code) return;
    event.stopPropagation();
    event.preventDefault();
    var tip = button.querySelector('.tooltiptext');
    navigator.clipboard.writeText(typed(code.innerText)).then(function () {
      if (tip) tip.innerText = 'Copied!';
      button.className = 'clip-button tooltipped';
    }, function () {
      if (tip) tip.innerText = 'Clipboard error!';
      button.className = 'clip-button tooltipped';
    });
  }, true);
})();
