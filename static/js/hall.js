// The hall screen (templates/standings/hall.html): show one panel at a time, the current
// round's pairings then the standings, turning every data-rotate-seconds. The panel on show is
// named on <body>, outside the region htmx refreshes, so a refresh keeps it on screen.
(function () {
  const body = document.body;
  const seconds = Number(body.dataset.rotateSeconds) || 15;

  function names() {
    return Array.from(document.querySelectorAll("[data-hall-panel]")).map(function (panel) {
      return panel.dataset.hallPanel;
    });
  }
  // After a refresh the panel on show may be gone (a round taken back): show the first.
  function keep() {
    const all = names();
    if (all.length && all.indexOf(body.dataset.showing) < 0) body.dataset.showing = all[0];
  }
  function turn() {
    const all = names();
    if (all.length) body.dataset.showing = all[(all.indexOf(body.dataset.showing) + 1) % all.length];
  }

  keep();
  window.setInterval(turn, seconds * 1000);
  document.addEventListener("htmx:afterSwap", keep);
})();
