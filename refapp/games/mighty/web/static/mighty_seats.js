// Mighty at four, six and seven seats: the kill's misses by taps, and the players out of the
// hand greyed. A card named to kill that was a miss moves, with one tap on "Miss", into the
// misses field (a tap on a miss takes it back); the resting players (known, named, or the
// dealer under dealer_sits_out) and the killed ones are greyed wherever a player of the hand is
// chosen: the boss, the friend, the bidder, a misdeal's player, another kill. The form's fields
// stay what is sent; this only fills and greys them (mighty.js lays the chips and pickers).
(function () {
  "use strict";

  const CARD = /^([SHDC])(10|[2-9AKQJ])$|^JK$/;

  function byId(id) {
    return id ? document.getElementById(id) : null;
  }

  function seatsOf(root) {
    try {
      return JSON.parse(root.dataset.mightySeats || "null");
    } catch (error) {
      return null;
    }
  }

  function cards(input) {
    return (input.value || "")
      .toUpperCase()
      .split(/[\s,;]+/)
      .filter(Boolean);
  }

  // -- the misses ---------------------------------------------------------------------------

  // A card as players write it (the suit symbol and rank, the joker by its word), from the
  // box's own picker.
  function written(box, card) {
    const picker = box.querySelector("[data-mighty-picker]");
    if (card === "JK") {
      const joker = picker && picker.querySelector("[data-pick='joker']");
      return joker && joker.firstChild ? joker.firstChild.textContent.trim() : card;
    }
    return picker ? window.MightyForm.face(picker, card) : card;
  }

  function showMisses(box) {
    const misses = byId(box.dataset.misses);
    const list = box.querySelector("[data-miss-list]");
    const typed = box.querySelector(".mighty-misses-typed");
    if (!misses || !list) return;
    if (typed) typed.hidden = true;
    misses.dataset.shown = cards(misses).map((card) => written(box, card)).join(" "); // the line's
    list.textContent = "";
    cards(misses).forEach((card) => {
      const chip = document.createElement("button");
      chip.type = "button";
      chip.className = "mighty-miss secondary";
      chip.dataset.miss = card;
      chip.textContent = written(box, card) + " \u2715";
      list.appendChild(chip);
    });
  }

  function miss(box) {
    const card = byId(box.dataset.card);
    const misses = byId(box.dataset.misses);
    const picker = box.querySelector("[data-mighty-picker]");
    const named = card ? (card.value || "").trim().toUpperCase() : "";
    if (!misses || !CARD.test(named)) return;
    const list = cards(misses);
    if (!list.includes(named)) list.push(named);
    misses.value = list.join(" ");
    card.value = "";
    if (picker) {
      picker.dataset.chosenSuit = "";
      picker.dataset.chosenRank = "";
    }
    window.MightyForm.changed(misses);
    window.MightyForm.changed(card);
  }

  function unmiss(box, chip) {
    const misses = byId(box.dataset.misses);
    if (!misses) return;
    misses.value = cards(misses)
      .filter((card) => card !== chip.dataset.miss)
      .join(" ");
    window.MightyForm.changed(misses);
  }

  // -- the players out of the hand ------------------------------------------------------------

  function chosen(root, role) {
    return Array.from(root.querySelectorAll("select[data-role='" + role + "']"))
      .map((select) => select.value)
      .filter(Boolean);
  }

  function resting(root, seats) {
    const dealer = root.querySelector("select[data-mighty-dealer]");
    if (seats.dealer_rests && dealer && dealer.value) return [dealer.value];
    const named = chosen(root, "sitter");
    return named.length ? named : seats.resting || [];
  }

  // Who may not be chosen in a select of this role (its own value aside).
  function outFor(root, seats, select) {
    const rest = resting(root, seats);
    const killed = chosen(root, "kill");
    const own = (names) => names.filter((name) => name !== select.value);
    switch (select.dataset.role) {
      case "boss":
      case "friend":
        return rest.concat(killed);
      case "bidder":
      case "misdeal":
        return rest; // the killed bid first: the auction comes before the kill
      case "kill":
        return rest.concat(chosen(root, "boss"), own(killed));
      case "sitter":
        return own(chosen(root, "sitter"));
      default:
        return [];
    }
  }

  function greyOut(root) {
    const seats = seatsOf(root);
    if (!seats) return;
    root.querySelectorAll("select[data-role]").forEach((select) => {
      const out = new Set(outFor(root, seats, select));
      Array.from(select.options).forEach((option) => {
        if (option.value) option.disabled = out.has(option.value) && option.value !== select.value;
      });
      const row = root.querySelector(".mighty-names[data-for='" + select.id + "']");
      if (!row) return;
      row.querySelectorAll("button").forEach((chip) => {
        const off = out.has(chip.dataset.value);
        chip.classList.toggle("mighty-out", off);
        chip.disabled = off && chip.dataset.value !== select.value; // the chosen one untaps
      });
    });
  }

  // A card named by one kill (or missed before it) cannot be named by the other: greyed in the
  // other kill's picker (mighty.js greys a picker's data-named), e.g. the mighty after it killed.
  function greyNamed(root) {
    const boxes = Array.from(root.querySelectorAll("[data-mighty-kill]"));
    if (boxes.length < 2) return;
    const named = boxes.map((box) => {
      const card = byId(box.dataset.card);
      const misses = byId(box.dataset.misses);
      return (card ? cards(card) : []).concat(misses ? cards(misses) : []);
    });
    boxes.forEach((box, at) => {
      const picker = box.querySelector("[data-mighty-picker]");
      const others = named.filter((_cards, index) => index !== at).flat();
      if (picker) picker.dataset.named = others.join(" ") || " ";
    });
  }

  function show(root) {
    root.querySelectorAll("[data-mighty-kill]").forEach(showMisses);
    greyNamed(root);
    greyOut(root);
  }

  // Who is out of the hand as the form stands (the card pad plays the others' turns).
  function out(root) {
    const seats = root && seatsOf(root);
    if (!seats) return [];
    return resting(root, seats).concat(chosen(root, "kill"));
  }

  window.MightySeats = { out };

  function init() {
    document.querySelectorAll(".mighty-form[data-mighty-seats]").forEach((root) => {
      show(root);
      if (window.MightyForm && root.dataset.ready) window.MightyForm.show(root); // the greying
    });
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest ? event.target.closest("button") : null;
    const box = button && button.closest("[data-mighty-kill]");
    if (!box) return;
    if (button.matches("[data-kill-miss]")) miss(box);
    else if (button.matches("[data-miss]")) unmiss(box, button);
  });

  document.addEventListener("change", (event) => {
    const root = event.target.closest && event.target.closest(".mighty-form[data-mighty-seats]");
    if (!root) return;
    show(root);
    // mighty.js greyed the pickers before this script named the kills' cards: grey them again
    if (window.MightyForm && root.dataset.ready) window.MightyForm.show(root);
  });

  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("refapp:swapped", init);
})();
