// The new-session form: choosing another preset (or saved rules) refills every house-rule field
// the player has not changed; a changed field keeps the player's value. Without this script the
// server compares the fields with the preset they were filled from (the hidden filled_from).
// The players entered decide the seat count: an option for other counts hides (data-seats),
// and an untouched field takes the count's default (data-seat-fills), so what the form shows
// is what the table gets.
(function () {
  const form = document.querySelector("form[data-preset-fills]");
  if (!form) return;
  const fills = JSON.parse(form.dataset.presetFills);
  const seatFills = JSON.parse(form.dataset.seatFills || "{}");
  const filledFrom = form.querySelector("input[name=filled_from]");
  const players = form.querySelector("textarea[name=players]");
  let seats = 0;

  function count() {
    if (!players) return 0;
    return players.value.split("\n").filter((line) => line.trim()).length;
  }

  function inputs(name) {
    return Array.from(form.querySelectorAll("[name='" + name + "']"));
  }

  function read(name, value) {
    const found = inputs(name);
    if (Array.isArray(value)) return found.filter((box) => box.checked).map((box) => box.value);
    if (typeof value === "boolean") return found.some((box) => box.checked);
    return found.length ? found[0].value : null;
  }

  function same(a, b) {
    if (Array.isArray(a) && Array.isArray(b)) {
      return a.length === b.length && a.every((item) => b.includes(item));
    }
    return a === b;
  }

  function write(name, value) {
    inputs(name).forEach((input) => {
      if (Array.isArray(value)) input.checked = value.includes(input.value);
      else if (typeof value === "boolean") input.checked = value;
      else input.value = value;
    });
  }

  // A field's value as a choice fills it at a seat count (the count's defaults under the
  // choice's own values), else as the choice fills it.
  function expected(choice, count, name) {
    const bySeats = (seatFills[choice] || {})[String(count)] || {};
    if (name in bySeats) return bySeats[name];
    return (fills[choice] || {})[name];
  }

  // Move every untouched field from one (choice, seat count) to another.
  function refill(names, from, to) {
    names.forEach((name) => {
      const before = expected(from[0], from[1], name);
      const after = expected(to[0], to[1], name);
      if (before === undefined || after === undefined) return;
      if (same(read(name, before), before)) write(name, after);
    });
  }

  // An option (or a preset) for other seat counts hides (a preset chosen stays), and so does a
  // group left with none to show.
  function showSeats() {
    form.querySelectorAll(".rule[data-seats], .preset-choice[data-seats]").forEach((rule) => {
      const chosen = rule.querySelector("input:checked");
      const away = !chosen && !rule.dataset.seats.split(" ").includes(String(seats));
      rule.style.display = away ? "none" : ""; // a label laid out as flex ignores [hidden]
    });
    form.querySelectorAll(".rule-group").forEach((group) => {
      const shown = Array.from(group.querySelectorAll(".rule")).some((rule) => rule.style.display !== "none");
      group.style.display = shown ? "" : "none";
    });
  }

  form.addEventListener("change", (event) => {
    if (!event.target.matches("input[data-preset]")) return;
    const after = fills[event.target.value];
    if (!after) return;
    refill(Object.keys(after), [filledFrom.value, seats], [event.target.value, seats]);
    filledFrom.value = event.target.value;
  });

  function seatsChanged() {
    const now = count();
    if (now === seats) return;
    const counts = seatFills[filledFrom.value] || {};
    const names = Object.keys(Object.assign({}, counts[seats], counts[now]));
    refill(names, [filledFrom.value, seats], [filledFrom.value, now]);
    seats = now;
    showSeats();
  }

  if (players) {
    players.addEventListener("input", seatsChanged);
    players.addEventListener("change", seatsChanged);
    // names.js seats a name by a tap: it writes the field without an input event of its own
    form.addEventListener("click", () => window.setTimeout(seatsChanged, 0));
  }
  // a page sent back (refused) holds the table's own values: at its count they stay as they are
  if (form.querySelector("[role=alert], .error")) seats = count();
  else seatsChanged();
  showSeats();
})();
