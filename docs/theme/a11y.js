// mdBook 0.5.4 makes its sidebar toggle a <label> carrying aria-label and aria-controls,
// which a label may not have (axe: aria-allowed-attr, aria-prohibited-attr), and which the
// keyboard cannot reach. Made a button: focusable, and Enter or Space toggles the sidebar.
(function () {
  var toggle = document.getElementById('mdbook-sidebar-toggle');
  if (!toggle || toggle.tagName !== 'LABEL') return;
  toggle.setAttribute('role', 'button');
  toggle.tabIndex = 0;
  toggle.addEventListener('keydown', function (event) {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    toggle.click();
  });
})();
