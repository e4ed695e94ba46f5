// Keyboard entry on the result-entry screen: with a board row focused (a click on the row, or
// the first board without a result when the page opens), 1 = 1-0, = or 5 = draw, 0 = 0-1,
// + / - = forfeits, x = double forfeit; arrow keys move between rows. The forfeit buttons may
// sit in a closed "⋯" (a phone): a click on them still submits.
function focusRow(row) {
  // Rows of the result entry page take the focus themselves; others (the playoff's) through
  // their first button.
  if (row.hasAttribute("tabindex")) row.focus();
  else row.querySelector("button").focus();
}
// The result page with something above the boards (the players' reports): the first board
// without a result takes the focus, but the page stays at the top (autofocus would scroll a
// phone's screen past the reports).
document.addEventListener("DOMContentLoaded", function () {
  const first = document.querySelector("tr[data-focus-first]");
  if (first) first.focus({ preventScroll: true });
});
document.addEventListener("keydown", function (event) {
  const row = event.target.closest && event.target.closest("tr[data-game]");
  if (!row || event.target.matches("input, textarea, select")) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const keys = { "1": "1-0", "=": "1/2-1/2", "5": "1/2-1/2", "0": "0-1", "+": "+/-", "-": "-/+", "x": "-/-", "X": "-/-" };
  if (keys[event.key]) {
    const button = row.querySelector('button[value="' + keys[event.key] + '"]');
    if (button) { event.preventDefault(); button.click(); }
  } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
    const rows = Array.from(document.querySelectorAll("tr[data-game]"));
    const next = rows[rows.indexOf(row) + (event.key === "ArrowDown" ? 1 : -1)];
    if (next) { event.preventDefault(); focusRow(next); }
  }
});
// After a row is swapped in, keep the focus on the next row so entry can continue; when that
// save completed the round, on the card that says what comes next.
let roundWasOpen = false;
document.addEventListener("htmx:beforeRequest", function () {
  const card = document.getElementById("round-next");
  roundWasOpen = Boolean(card && card.hidden);
});
// On afterSwap, not afterSettle: htmx gives the focus back to the swapped row (same id) during
// the swap, and a key typed before the settle would land on the board just saved.
document.addEventListener("htmx:afterSwap", function (event) {
  const row = event.detail.target;
  if (!row || !row.matches || !row.matches("tr[data-game]")) return;
  const fresh = document.getElementById(row.id);
  if (!fresh || fresh.querySelector(".conflict")) return;
  const rows = Array.from(document.querySelectorAll("tr[data-game]"));
  const next = rows[rows.indexOf(fresh) + 1];
  const card = document.getElementById("round-next");
  const action = card && !card.hidden && card.querySelector("a, button");
  if (action && roundWasOpen) {
    action.focus();
  } else if (next) {
    focusRow(next);
  } else {
    focusRow(fresh);
  }
});

// A select marked data-autosubmit submits its form on change (the button is there without JS).
document.addEventListener("change", function (event) {
  if (event.target.matches && event.target.matches("select[data-autosubmit]")) {
    event.target.form.submit();
  }
});
// The settings page's tie-break chooser: a click appends the code to the ordered list.
document.addEventListener("click", function (event) {
  const button = event.target.closest && event.target.closest("[data-add-tiebreak]");
  if (!button) return;
  const field = document.getElementById("id_tiebreaks");
  const codes = field.value.split(",").map(function (c) { return c.trim(); }).filter(Boolean);
  codes.push(button.dataset.addTiebreak);
  field.value = codes.join(", ");
  field.focus();
});
// A button marked data-print opens the browser's print dialog (the sheets are A4 already).
document.addEventListener("click", function (event) {
  if (event.target.closest && event.target.closest("[data-print]")) window.print();
});
// A region that refreshes itself (hx-trigger "every 20s": the player's page, the standings, the
// live round) is not swapped while a person presses inside it: a button held for a tenth of a
// second would be replaced between mouse-down and mouse-up, and the click would land on nothing.
// That refresh is dropped; the next one brings the news.
document.addEventListener("htmx:beforeSwap", function (event) {
  const region = event.detail.target;
  const polls = /^every /.test(event.detail.elt.getAttribute("hx-trigger") || "");
  if (polls && region && (region.matches(":active") || region.querySelector(":active"))) {
    event.detail.shouldSwap = false;
  }
});
