// Mighty's hand form by taps: chips over the name and count selects, a card picker for the
// friend card, a 0-20 pad for the opposition's points, a card grid for a misdeal's hand. The
// form's own fields stay and are what gets sent; the pickers only fill them in, so every page
// works without this script. The pickers' words come from the page (form.html renders them).
(function () {
  "use strict";

  const PAD_KEY = "refapp-mighty-pad";
  const PAD_FRESH_MS = 30000;
  const CARD = /^([SHDC])(10|[2-9AKQJ])$/;

  function byId(id) {
    return id ? document.getElementById(id) : null;
  }

  function changed(field) {
    field.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function press(button, on) {
    button.setAttribute("aria-pressed", on ? "true" : "false");
  }

  function hide(field) {
    field.classList.add("mighty-hidden");
  }

  // -- chips over a <select>: one tap picks a name, a count or a holder -------------------------

  function chipRow(select) {
    const row = document.createElement("div");
    row.className = "mighty-names";
    row.setAttribute("role", "group");
    row.dataset.for = select.id;
    const label = document.querySelector("label[for='" + select.id + "']");
    if (label) row.setAttribute("aria-label", label.textContent.trim());
    const all = select.dataset.chips === "all";
    Array.from(select.options).forEach((option) => {
      if (option.value === "" && !all) return; // the blank "-": tap the chosen chip again
      const chip = document.createElement("button");
      chip.type = "button";
      chip.dataset.value = option.value;
      chip.textContent = option.textContent;
      chip.disabled = option.disabled; // a player out of the hand (mighty_seats.js follows)
      row.appendChild(chip);
    });
    hide(select);
    select.insertAdjacentElement("afterend", row);
  }

  function tapChip(chip) {
    const select = byId(chip.parentElement.dataset.for);
    if (!select) return;
    const blank = select.dataset.chips !== "all" && select.querySelector("option[value='']");
    select.value = blank && select.value === chip.dataset.value ? "" : chip.dataset.value;
    changed(select);
  }

  function showChips(root) {
    root.querySelectorAll(".mighty-names").forEach((row) => {
      const select = byId(row.dataset.for);
      if (!select) return;
      row.querySelectorAll("button").forEach((chip) => {
        press(chip, chip.dataset.value === select.value);
      });
    });
  }

  // -- the auction pad ----------------------------------------------------------------------

  // Before the first bid the auction starts with the dealer: the bidder follows the dealer, and
  // is asked for only while nobody deals (after that the rules know whose turn it is).
  function followDealer(root, dealer) {
    const box = root.querySelector("[data-mighty-bidder]");
    const bidder = box && box.querySelector("select");
    if (!bidder) return;
    const started = Boolean(root.querySelector(".mighty-log"));
    if (!started && dealer && dealer.value) bidder.value = firstBidder(root, bidder, dealer.value);
    box.hidden = started || Boolean(dealer && dealer.value);
  }

  // The dealer bids first, unless the dealer rests this hand (six seats): then the next seat.
  function firstBidder(root, bidder, dealer) {
    let seats = {};
    try {
      seats = JSON.parse(root.dataset.mightySeats || "{}");
    } catch (error) {
      return dealer;
    }
    if (!seats.dealer_rests) return dealer;
    const names = Array.from(bidder.options).map((option) => option.value).filter(Boolean);
    const at = names.indexOf(dealer);
    return at < 0 ? dealer : names[(at + 1) % names.length];
  }

  // A pad button sent by a page load (no in-place swap): bring the pad back into view after it.
  function rememberPad(button) {
    const box = button.closest("[data-mighty-pad]");
    try {
      window.sessionStorage.setItem(PAD_KEY, JSON.stringify({ id: box.id, at: Date.now() }));
    } catch (error) {
      /* no storage: the page opens at its top */
    }
  }

  function padKept(remove) {
    try {
      const kept = JSON.parse(window.sessionStorage.getItem(PAD_KEY) || "null");
      if (remove) window.sessionStorage.removeItem(PAD_KEY);
      return kept;
    } catch (error) {
      return null;
    }
  }

  function padIntoView() {
    const kept = padKept(true);
    const box = kept && Date.now() - kept.at < PAD_FRESH_MS && byId(kept.id);
    if (box) box.scrollIntoView({ block: "start" });
  }

  // The auction just won, the contract shown (data-part-show): its line at the top of the screen,
  // so the count and trump sit above the record bar (after live.js has put the page back).
  function contractIntoView() {
    window.setTimeout(() => {
      const part = document.querySelector("form [data-part='contract'][data-part-show]");
      const form = part && part.closest("form.composing"); // one part at a time
      const line = form && form.querySelector(".composer-line");
      if (line && part.classList.contains("composer-current")) {
        window.scrollBy(0, line.getBoundingClientRect().top - 8);
      }
    }, 0);
  }

  // -- the friend card: the special cards in one tap, any other by its suit and rank ----------

  function specialCards(root) {
    try {
      return JSON.parse(root.dataset.mightyCards || "{}");
    } catch (error) {
      return {};
    }
  }

  // A card as printed: the suit's symbol (from the picker's suit button) and the rank.
  function face(picker, card) {
    const found = CARD.exec(card);
    const suit = found && picker.querySelector("[data-suit='" + found[1] + "']");
    return suit ? suit.textContent + found[2] : card;
  }

  function followTrump(root, picker) {
    const trump = root.querySelector("input[data-mighty-trump]:checked");
    const cards = specialCards(root)[trump ? trump.value : "NT"] || {};
    ["mighty", "joker_call"].forEach((kind) => {
      const button = picker.querySelector("[data-pick='" + kind + "']");
      if (!button || !cards[kind]) return;
      button.dataset.card = cards[kind];
      button.querySelector("span").textContent = face(picker, cards[kind]);
    });
  }

  function startPicker(picker) {
    const input = byId(picker.dataset.for);
    if (!input) return;
    const found = CARD.exec((input.value || "").trim().toUpperCase());
    picker.dataset.chosenSuit = found ? found[1] : "";
    picker.dataset.chosenRank = found ? found[2] : "";
    hide(input);
    picker.hidden = false;
  }

  function pickCard(picker, button) {
    const input = byId(picker.dataset.for);
    if (!input) return;
    if (button.dataset.pick) {
      const found = CARD.exec(button.dataset.card);
      picker.dataset.chosenSuit = found ? found[1] : "";
      picker.dataset.chosenRank = found ? found[2] : "";
      input.value = button.dataset.card;
    } else {
      if (button.dataset.suit) picker.dataset.chosenSuit = button.dataset.suit;
      if (button.dataset.rank) picker.dataset.chosenRank = button.dataset.rank;
      const suit = picker.dataset.chosenSuit;
      const rank = picker.dataset.chosenRank;
      input.value = suit && rank ? suit + rank : ""; // half a card is no card yet
    }
    changed(input);
  }

  // Every card picker of the form: the friend card's, and the kill's (6마, 7마).
  function showPickers(root) {
    root.querySelectorAll("[data-mighty-picker]").forEach((picker) => showPicker(root, picker));
  }

  function showPicker(root, picker) {
    const input = byId(picker.dataset.for);
    if (!input) return;
    followTrump(root, picker);
    const card = (input.value || "").trim().toUpperCase();
    picker.querySelectorAll("[data-pick]").forEach((b) => press(b, b.dataset.card === card));
    picker.querySelectorAll("[data-suit]").forEach((b) => {
      press(b, b.dataset.suit === picker.dataset.chosenSuit);
    });
    picker.querySelectorAll("[data-rank]").forEach((b) => {
      press(b, b.dataset.rank === picker.dataset.chosenRank);
    });
    greyCards(picker);
    // the card as players write it (suit symbol and rank, or the joker word), for the line
    const joker = picker.querySelector("[data-pick='joker']");
    const jokerWord = joker && joker.firstChild ? joker.firstChild.textContent.trim() : card;
    input.dataset.shown = !CARD.exec(card) && card !== "JK" ? "" : card === "JK" ? jokerWord : face(picker, card);
  }

  // The cards that may not be chosen (data-out: not in a four-seat deck, a forbidden friend
  // card) are greyed: a special card at once, a rank for the suit chosen (or for every suit).
  function greyCards(picker) {
    // data-named: the cards another kill already named (mighty_seats.js keeps it)
    const out = ((picker.dataset.out || "") + " " + (picker.dataset.named || "")).split(" ").filter(Boolean);
    if (!out.length && !picker.dataset.named) return;
    const suits = Array.from(picker.querySelectorAll("[data-suit]")).map((b) => b.dataset.suit);
    const chosen = picker.dataset.chosenSuit;
    picker.querySelectorAll("[data-pick]").forEach((b) => {
      b.disabled = out.includes(b.dataset.card);
    });
    picker.querySelectorAll("[data-rank]").forEach((b) => {
      const rank = b.dataset.rank;
      b.disabled = chosen
        ? out.includes(chosen + rank)
        : suits.every((suit) => out.includes(suit + rank));
    });
  }

  // The friend card only matters when the friend is named by a card.
  function showFriendCard(root) {
    const box = root.querySelector(".mighty-friend-card");
    const checked = root.querySelector("input[data-mighty-friend-kind]:checked");
    if (box && checked) box.hidden = checked.value !== "card";
  }

  // -- the opposition's points: one tap from 0 to 20 ------------------------------------------

  function showPoints(root) {
    const pad = root.querySelector("[data-mighty-points]");
    const input = pad && byId(pad.dataset.for);
    if (!input) return;
    const value = (input.value || "").trim();
    pad.querySelectorAll("[data-points]").forEach((b) => press(b, b.dataset.points === value));
  }

  // -- a misdeal: tap the dealt cards (data-size: 10, 8 or 7); the server's values add up ----

  function dealt(input) {
    return (input.value || "")
      .toUpperCase()
      .split(/[\s,;]+/)
      .filter(Boolean);
  }

  function dealCard(grid, button) {
    const input = byId(grid.dataset.for);
    if (!input) return;
    const hand = dealt(input);
    const card = button.dataset.dealCard;
    const at = hand.indexOf(card);
    if (at >= 0) hand.splice(at, 1);
    else if (hand.length < Number(grid.dataset.size)) hand.push(card);
    input.value = hand.join(" ");
    changed(input);
  }

  function showDeal(root) {
    const grid = root.querySelector("[data-mighty-deal]");
    const input = grid && byId(grid.dataset.for);
    if (!input) return;
    let values = {};
    try {
      values = JSON.parse(grid.dataset.values || "{}");
    } catch (error) {
      return;
    }
    const hand = dealt(input);
    grid.querySelectorAll("[data-deal-card]").forEach((b) => {
      press(b, hand.includes(b.dataset.dealCard));
    });
    const worth = hand.reduce((sum, card) => sum + Number(values[card] || 0), 0);
    const full = hand.length === Number(grid.dataset.size);
    const high = full && worth > Number(grid.dataset.most);
    const sum = grid.querySelector(".mighty-deal-sum");
    let text = sum.dataset.words.replace("{count}", hand.length).replace("{value}", worth);
    if (full) text += " " + (high ? sum.dataset.high : sum.dataset.low);
    sum.textContent = text;
    sum.classList.toggle("mighty-too-high", high);
  }

  // Where the mighty and the joker ended, for the composer's line: the holders chosen (the
  // ruling side, the default, goes unsaid), e.g. "mighty: Opposition · joker: Kitty".
  function showHolders(root) {
    const part = root.querySelector(".mighty-holders");
    if (!part) return;
    const said = ["mighty_holder", "joker_holder"].map((name) => {
      const select = part.querySelector("select[name$='" + name + "']");
      const option = select && select.value ? select.selectedOptions[0] : null;
      const words = part.getAttribute("data-line-" + name) || "";
      return option ? words.replace("{holder}", option.textContent.trim()) : "";
    });
    part.dataset.partLine = said.filter(Boolean).join(" · ");
  }

  // -- one form: set up once, shown again after every tap or change ---------------------------

  function show(root) {
    showChips(root);
    followDealer(root, root.querySelector("select[data-mighty-dealer]"));
    showChips(root); // the bidder may have followed the dealer
    showPickers(root);
    showFriendCard(root);
    showPoints(root);
    showDeal(root);
    showHolders(root);
  }

  function setUp(root) {
    root.dataset.ready = "1";
    root.classList.add("mighty-js");
    root.querySelectorAll("select[data-chips]").forEach(chipRow);
    root.querySelectorAll("[data-mighty-picker]").forEach(startPicker);
    root.querySelectorAll("[data-mighty-points], [data-mighty-deal]").forEach((pad) => {
      const input = byId(pad.dataset.for);
      if (!input) return;
      hide(input);
      pad.hidden = false;
    });
    root.querySelectorAll("[data-mighty-nojs]").forEach((node) => {
      node.hidden = true;
    });
    root.querySelectorAll("[data-mighty-js]").forEach((node) => {
      node.hidden = false;
    });
    show(root);
  }

  function init() {
    document.querySelectorAll(".mighty-form:not([data-ready])").forEach(setUp);
  }

  // what mighty_seats.js (the kill, who rests) draws with
  window.MightyForm = { show, face, changed };

  function setPoints(button) {
    const input = byId(button.parentElement.dataset.for);
    if (!input) return;
    input.value = button.dataset.points;
    changed(input);
  }

  // One tap on a picker's button fills its field; a tap on the pad is remembered for a reload.
  function tapped(button) {
    if (button.matches(".mighty-names > button")) tapChip(button);
    else if (button.matches("[data-pick], [data-suit], [data-rank]")) {
      pickCard(button.closest("[data-mighty-picker]"), button);
    } else if (button.matches("[data-points]")) setPoints(button);
    else if (button.matches("[data-deal-card]")) dealCard(button.closest("[data-mighty-deal]"), button);
    else if (button.matches("[data-mighty-pad] button[type=submit]")) rememberPad(button);
    else return false;
    return true;
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest ? event.target.closest("button") : null;
    const root = button && button.closest(".mighty-form[data-ready]");
    if (root && tapped(button) && button.type === "button") show(root);
  });

  document.addEventListener("change", (event) => {
    const root = event.target.closest && event.target.closest(".mighty-form");
    if (root && root.dataset.ready) show(root);
  });

  document.addEventListener("DOMContentLoaded", () => {
    init();
    padIntoView();
  });

  document.addEventListener("refapp:swapped", () => {
    padKept(true); // answered in place: live.js keeps the pad where it was
    init();
    contractIntoView();
  });
})();
