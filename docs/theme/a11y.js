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

// A code block or table wider than the page scrolls sideways, which a keyboard user can
// only do once it can take focus (WCAG 2.1.1; axe: scrollable-region-focusable). Each one
// that overflows gets a tab stop and a name; the arrow keys then scroll it.
(function () {
  function mark() {
    document.querySelectorAll('pre > code, .table-wrapper').forEach(function (box) {
      if (box.scrollWidth > box.clientWidth) {
        box.tabIndex = 0;
        if (!box.dataset.skArrows) {
          // Its arrow keys scroll it; mdBook would otherwise leave the page for the next
          // or previous chapter.
          box.dataset.skArrows = '1';
          box.addEventListener('keydown', function (event) {
            if ((event.key === 'ArrowLeft' || event.key === 'ArrowRight') && box.getAttribute('role') === 'region') {
              event.stopPropagation();
            }
          });
        }
        box.setAttribute('role', 'region');
        box.setAttribute('aria-label', (box.tagName === 'CODE' ? 'code' : 'table') + ', scrolls sideways');
      } else if (box.getAttribute('role') === 'region') {
        box.removeAttribute('tabindex');
        box.removeAttribute('role');
        box.removeAttribute('aria-label');
      }
    });
  }
  mark();
  // A box's size changes with the window and when a tab shows its hidden panel (a box
  // measured while hidden has no overflow).
  if (window.ResizeObserver) {
    var observer = new ResizeObserver(mark);
    document.querySelectorAll('pre > code, .table-wrapper').forEach(function (box) { observer.observe(box); });
  } else {
    window.addEventListener('resize', mark);
  }
})();
