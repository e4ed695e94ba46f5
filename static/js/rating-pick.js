// The players page's type-ahead (ratings/_registration.html): choosing a hit fills the
// "Add a player" form with the list's data and puts the focus in it, so Enter registers.
// Without this script (or on the search page, which has no such form) the hit's button posts
// the same fields and registers the player at once.
document.addEventListener("click", function (event) {
  const hit = event.target.closest && event.target.closest("[data-rating-fill]");
  const form = document.getElementById("player-add");
  if (!hit || !form) return;
  event.preventDefault();
  const fields = JSON.parse(hit.dataset.ratingFill);
  Object.keys(fields).forEach(function (name) {
    const input = form.elements.namedItem(name);
    if (input) input.value = fields[name];
  });
  const name = form.elements.namedItem("name");
  if (name) { name.focus(); name.select(); }
});
