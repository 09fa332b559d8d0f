// dalmuti pages: progressive enhancements only; every page works without them.
// The hand form's tap pads (rendered hidden by the template, with every word in it) fill the
// form's own fields: the revolution selects, the tribute text fields, the finishing places.
// Everything is read back from those fields, so a form kept or swapped in by live.js just works.
(function () {
  "use strict";

  const HAND = "[data-dalmuti-hand]";
  const JESTER = "J"; // the jester's number is the form's (data-jester-number), not this script's

  function fire(field, type) {
    field.dispatchEvent(new Event(type, { bubbles: true }));
  }

  // -- 1. the revolution: one tap on who showed both jesters (and which kind) ----------------

  function revolutionFields(hand) {
    return {
      player: hand.querySelector("select[data-revolution]"),
      kind: hand.querySelector("select[data-revolution-kind]"),
      tribute: hand.querySelector("fieldset[data-tribute]"),
      paid: hand.querySelector(".dal-paid input[type=checkbox]"),
      tax: hand.querySelector("#dal-tax"),
    };
  }

  // Ask the composer to show a part (the form goes on to it); the whole form ("All at once")
  // and a page without the composer stay as they are.
  function showPart(hand, key) {
    const form = hand.closest("form");
    if (!form || !form.classList.contains("composing")) return;
    hand.dispatchEvent(new CustomEvent("refapp:show-part", { bubbles: true, detail: { part: key } }));
  }

  function tapRevolution(hand, button) {
    const fields = revolutionFields(hand);
    if (!fields.player) return;
    const again = button.getAttribute("aria-pressed") === "true";
    fields.player.value = again ? "" : button.dataset.revolt;
    if (fields.kind && !again) fields.kind.value = button.dataset.kind;
    fire(fields.player, "change");
    // declared: the tax is moot, so the hand goes on to who went out (while still to enter)
    const open = places(hand).some((select) => !select.value);
    if (!again) showPart(hand, open ? "finish" : "revolution");
  }

  // A revolution cancels the tax: the tax part is not asked (the composer skips it, its chips
  // go) and the tribute and "paid as due" are set aside (disabled fields are not sent).
  function syncRevolution(hand) {
    const fields = revolutionFields(hand);
    if (!fields.player) return;
    const who = fields.player.value;
    const kind = fields.kind ? fields.kind.value : "plain";
    if (fields.tribute) fields.tribute.disabled = Boolean(who);
    if (fields.paid) fields.paid.disabled = Boolean(who);
    if (fields.kind) fields.kind.disabled = !who;
    if (fields.tax) moot(fields.tax, Boolean(who));
    hand.toggleAttribute("data-revolted", Boolean(who));
    hand.querySelectorAll("button[data-revolt]").forEach((button) => {
      const on = Boolean(who) && button.dataset.revolt === who && button.dataset.kind === kind;
      button.setAttribute("aria-pressed", String(on));
    });
  }

  // A part the rules make moot leaves the composer's parts and the page (data-moot keeps its
  // key to give back; a part the composer set aside itself, data-part-off, stays aside).
  function moot(part, off) {
    if (off && part.dataset.part) {
      part.dataset.moot = part.dataset.part;
      part.removeAttribute("data-part");
      part.classList.remove("composer-current");
    } else if (!off && part.dataset.moot) {
      part.dataset.part = part.dataset.moot;
      part.removeAttribute("data-moot");
    }
    part.hidden = off;
  }

  // -- 2. the tax: tap the numbers of the cards each player gives ----------------------------

  function cardsIn(field) {
    return field.value.split(/[\s,;.]+/).filter((token) => token);
  }

  function shown(row, token) {
    return token.toUpperCase() === JESTER ? row.closest(HAND).dataset.jesterNumber : token;
  }

  function writeCards(field, cards) {
    field.value = cards.join(" ");
    fire(field, "input");
  }

  function payField(row) {
    return row.querySelector("input[name]:not([type=hidden])");
  }

  function tapCard(row, button) {
    const field = payField(row);
    const cards = cardsIn(field);
    if (cards.length >= Number(row.dataset.count)) return;
    writeCards(field, cards.concat(button.dataset.card));
  }

  function takeBack(row, button) {
    const field = payField(row);
    const cards = cardsIn(field);
    cards.splice(Number(button.dataset.index), 1);
    writeCards(field, cards);
  }

  function syncPay(row) {
    const field = payField(row);
    const owed = row.querySelector("[data-owed]");
    const chips = row.querySelector("[data-chips]");
    if (!field || !owed || !chips) return;
    const cards = cardsIn(field);
    const count = Number(row.dataset.count);
    owed.textContent = owed.dataset.owed.replace("{given}", String(cards.length));
    owed.classList.toggle("dal-done", cards.length === count);
    owed.classList.toggle("dal-over", cards.length > count);
    chips.textContent = "";
    cards.forEach((token, index) => {
      const chip = document.createElement("button");
      chip.type = "button";
      chip.className = "dal-back";
      chip.dataset.index = String(index);
      chip.textContent = shown(row, token);
      chip.setAttribute("aria-label", chips.dataset.takeBack.replace("{card}", shown(row, token)));
      chips.appendChild(chip);
    });
    row.querySelectorAll("button[data-card]").forEach((button) => {
      button.disabled = cards.length >= count;
    });
  }

  // -- 3. who went out: tap the names in order; a placed name taps back out -----------------

  function places(hand) {
    return Array.from(hand.querySelectorAll("select[data-place]"));
  }

  function tapName(hand, name) {
    const selects = places(hand);
    const placed = selects.find((select) => select.value === name);
    if (placed) {
      placed.value = "";
      fire(placed, "change");
      return;
    }
    const open = selects.find((select) => !select.value);
    if (!open) return;
    open.value = name;
    // the last place fills itself once every other place is taken
    const taken = selects.map((select) => select.value);
    const left = Array.from(hand.querySelectorAll("button[data-name]"))
      .map((button) => button.dataset.name)
      .filter((other) => !taken.includes(other));
    const still = selects.filter((select) => !select.value);
    if (left.length === 1 && still.length === 1) still[0].value = left[0];
    fire(open, "change");
  }

  function undoPlace(hand) {
    const filled = places(hand).filter((select) => select.value);
    if (!filled.length) return;
    filled[filled.length - 1].value = "";
    fire(filled[filled.length - 1], "change");
  }

  function syncFinish(hand) {
    const taken = places(hand).map((select) => select.value);
    hand.querySelectorAll("button[data-name]").forEach((button) => {
      const place = taken.indexOf(button.dataset.name);
      button.setAttribute("aria-pressed", String(place >= 0));
      button.textContent = place >= 0 ? `${place + 1}. ${button.dataset.name}` : button.dataset.name;
    });
    const undo = hand.querySelector(".dal-undo");
    if (undo) undo.disabled = !taken.some((name) => name);
  }

  // -- the whole form ---------------------------------------------------------------------------

  function sync(hand) {
    syncRevolution(hand);
    hand.querySelectorAll("[data-pay]").forEach(syncPay);
    syncFinish(hand);
  }

  function setUp(hand) {
    if (hand.dataset.ready !== "1") {
      hand.dataset.ready = "1";
      hand.querySelectorAll("[data-tap-pad]").forEach((pad) => {
        pad.hidden = false;
      });
    }
    sync(hand);
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button[type=button]");
    const hand = button && button.closest(HAND);
    if (!hand || button.disabled) return;
    const row = button.closest("[data-pay]");
    if (button.dataset.revolt) tapRevolution(hand, button);
    else if (row && button.dataset.card) tapCard(row, button);
    else if (row && button.dataset.index) takeBack(row, button);
    else if (button.dataset.name) tapName(hand, button.dataset.name);
    else if (button.classList.contains("dal-undo")) undoPlace(hand);
  });

  function changed(event) {
    const hand = event.target.closest && event.target.closest(HAND);
    if (hand && hand.dataset.ready === "1") sync(hand);
    if (event.target.closest && event.target.closest("[data-first-ranks]")) syncFirstRanks();
  }
  document.addEventListener("input", changed);
  document.addEventListener("change", changed);

  // New session: show the expected lines for the way the first ranks are decided.
  function syncFirstRanks() {
    const picked = document.querySelector("[data-first-ranks] input:checked");
    const players = document.querySelector("textarea[name=players]");
    if (!picked || !players) return;
    players.placeholder = picked.value === "draw" ? "Ann 7\nBen 1\nCy J\nDee 3" : "Ann\nBen\nCy\nDee";
  }

  function init() {
    document.querySelectorAll(HAND).forEach(setUp);
    syncFirstRanks();
  }

  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("refapp:swapped", init);
})();
