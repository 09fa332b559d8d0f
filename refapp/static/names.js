// The new-session form's seats without typing: a known name's chip seats it in the next empty
// seat (a second tap takes it away), and tapping a seat then another swaps the two. The
// players field stays the one truth (one seat per line), so typing still works and the form
// works without this script.
(function () {
  const tools = document.querySelector("[data-seat-tools]");
  const field = document.querySelector("form.new-session textarea[name=players]");
  if (!tools || !field) return;
  const order = tools.querySelector("[data-seat-order]");
  const hint = tools.querySelector("[data-seat-hint]");
  let picked = null; // the seat tapped first, waiting for the one to swap it with

  function seats() {
    const lines = field.value.split("\n").map((line) => line.trim());
    while (lines.length && !lines[lines.length - 1]) lines.pop();
    return lines;
  }

  function write(lines) {
    field.value = lines.join("\n");
    picked = null;
    show();
  }

  function seatButton(line, index) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "seat";
    button.dataset.seat = String(index);
    button.setAttribute("aria-pressed", String(index === picked));
    const number = document.createElement("span");
    number.className = "seat-number";
    number.textContent = String(index + 1);
    button.append(number, " ", line || "\u2014"); // the space: read aloud, not drawn (flex)
    item.append(button);
    return item;
  }

  function show() {
    const lines = seats();
    order.replaceChildren(...lines.map(seatButton));
    hint.hidden = lines.length < 2;
    tools.querySelectorAll("button[data-name]").forEach((chip) => {
      chip.setAttribute("aria-pressed", String(lines.includes(chip.dataset.name)));
    });
  }

  function toggle(name) {
    const lines = seats();
    const at = lines.indexOf(name);
    if (at >= 0) {
      lines.splice(at, 1);
    } else {
      const empty = lines.findIndex((line) => !line);
      if (empty >= 0) lines[empty] = name;
      else lines.push(name);
    }
    write(lines);
  }

  function tapSeat(index) {
    if (picked === null || picked === index) {
      picked = picked === index ? null : index;
      show();
      return;
    }
    const lines = seats();
    [lines[picked], lines[index]] = [lines[index], lines[picked]];
    write(lines);
  }

  tools.addEventListener("click", (event) => {
    const chip = event.target.closest("button[data-name]");
    const seat = event.target.closest("button[data-seat]");
    if (chip) toggle(chip.dataset.name);
    else if (seat) tapSeat(Number(seat.dataset.seat));
  });
  field.addEventListener("input", () => {
    picked = null;
    show();
  });
  tools.hidden = false;
  field.rows = 2; // the seats below show every name: the field is only for a new one
  show();
})();
