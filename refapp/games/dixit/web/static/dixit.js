// dixit pages: progressive enhancements only; every page works without them.
// The turn form's tap pads (rendered hidden by the template, with every word in them) fill the
// form's own selects: who laid each numbered card, each voter's card(s). Everything is read back
// from those selects, so a form kept or swapped in by live.js just works.
(function () {
  "use strict";

  const TURN = "[data-dixit-turn]";
  const EMPTY = "\u2014";

  function fire(select) {
    select.dispatchEvent(new Event("input", { bubbles: true }));
    select.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function storyteller(turn) {
    const select = turn.querySelector("select[data-storyteller]");
    return select ? select.value : "";
  }

  // -- who laid each card: tap a card to make it active, tap a name to fill it ----------------

  function positions(turn) {
    return Array.from(turn.querySelectorAll("select[data-position]"));
  }

  function names(turn) {
    return Array.from(turn.querySelectorAll("button[data-name]")).map((b) => b.dataset.name);
  }

  // How many cards a player lays: one for the storyteller, else one (two with three players).
  function cardsOf(turn, name) {
    return name === storyteller(turn) ? 1 : Number(turn.dataset.cardsEach || 1);
  }

  function laidBy(selects, name) {
    return selects.filter((select) => select.value === name).length;
  }

  // The next card with no owner after index `from` (round the table), or -1.
  function nextEmpty(selects, from) {
    for (let step = 1; step <= selects.length; step += 1) {
      const index = (from + step) % selects.length;
      if (!selects[index].value) return index;
    }
    return -1;
  }

  function active(turn, selects) {
    const stored = turn.dataset.active;
    if (stored === undefined || stored === "") return nextEmpty(selects, -1);
    return Number(stored);
  }

  function tapSlot(turn, index) {
    const selects = positions(turn);
    turn.dataset.active = String(active(turn, selects) === index ? -1 : index);
  }

  // The last card fills itself once one card and one player's card are left.
  function fillLast(turn, selects) {
    const open = selects.filter((select) => !select.value);
    if (open.length !== 1) return null;
    const left = [];
    names(turn).forEach((name) => {
      for (let n = laidBy(selects, name); n < cardsOf(turn, name); n += 1) left.push(name);
    });
    if (left.length !== 1) return null;
    open[0].value = left[0];
    return open[0];
  }

  // A name fills the active card; a name already laid in full moves here (the two swap), and
  // the card's own name taps it empty again.
  function tapName(turn, name) {
    const selects = positions(turn);
    const at = active(turn, selects);
    if (at < 0 || at >= selects.length) return;
    const here = selects[at];
    const was = here.value;
    const changed = [here];
    if (was === name) {
      here.value = "";
    } else {
      if (laidBy(selects, name) >= cardsOf(turn, name)) {
        const other = selects.find((select) => select !== here && select.value === name);
        if (other) {
          other.value = was;
          changed.push(other);
        }
      }
      here.value = name;
      const last = fillLast(turn, selects);
      if (last) changed.push(last);
    }
    turn.dataset.active = String(here.value ? nextEmpty(selects, at) : at);
    changed.forEach(fire);
  }

  function syncPositions(turn) {
    const selects = positions(turn);
    const at = active(turn, selects);
    selects.forEach((select, index) => {
      const button = select.parentNode.querySelector("button[data-slot]");
      if (!button) return;
      button.querySelector(".dx-slot-who").textContent = select.value || EMPTY;
      button.classList.toggle("dx-open", !select.value);
      button.setAttribute("aria-pressed", String(index === at));
    });
    turn.querySelectorAll("button[data-name]").forEach((button) => {
      const name = button.dataset.name;
      button.classList.toggle("dx-used", laidBy(selects, name) >= cardsOf(turn, name));
    });
  }

  // -- the votes: beside each voter, one tap per card voted for --------------------------------

  function voteSelects(row) {
    return Array.from(row.querySelectorAll(".vote-fields select"));
  }

  // A tapped card is voted for (in the first free vote, else in place of the last one);
  // a card voted for taps back out.
  function tapVote(row, number) {
    const selects = voteSelects(row);
    const votes = selects.map((select) => select.value).filter((value) => value);
    const taken = votes.indexOf(number);
    if (taken >= 0) votes.splice(taken, 1);
    else if (votes.length < selects.length) votes.push(number);
    else votes[votes.length - 1] = number;
    selects.forEach((select, index) => {
      select.value = votes[index] || "";
    });
    selects.forEach(fire);
  }

  // The storyteller does not vote: their row is dimmed and its votes are not sent.
  function syncVotes(turn) {
    const teller = storyteller(turn);
    turn.querySelectorAll(".vote-row").forEach((row) => {
      const telling = row.dataset.voter === teller;
      row.classList.toggle("storyteller", telling);
      const selects = voteSelects(row);
      const votes = selects.map((select) => select.value);
      if (turn.dataset.ready === "1") {
        selects.forEach((select) => {
          select.disabled = telling;
        });
      }
      row.querySelectorAll("button[data-vote]").forEach((button) => {
        button.disabled = telling;
        button.setAttribute("aria-pressed", String(!telling && votes.includes(button.dataset.vote)));
      });
    });
  }

  // -- the whole form ---------------------------------------------------------------------------

  function sync(turn) {
    syncVotes(turn);
    if (turn.dataset.ready === "1") syncPositions(turn);
  }

  function setUp(turn) {
    if (turn.dataset.ready !== "1") {
      turn.dataset.ready = "1";
      turn.classList.add("dx-js");
      turn.querySelectorAll(".dx-pad").forEach((pad) => {
        pad.hidden = false;
      });
    }
    sync(turn);
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button[type=button]");
    const turn = button && button.closest(TURN);
    if (!turn || button.disabled || turn.dataset.ready !== "1") return;
    if (button.dataset.slot) tapSlot(turn, Number(button.dataset.slot) - 1);
    else if (button.dataset.name) tapName(turn, button.dataset.name);
    else if (button.dataset.vote) tapVote(button.closest(".vote-row"), button.dataset.vote);
    sync(turn);
  });

  // A refusal's link leads to its field; a select under a pad leads to the pad's button instead
  // (a refused card becomes the active one).
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a[data-field]");
    const field = link && document.getElementById(link.dataset.field);
    const turn = field && field.closest(TURN);
    if (!turn || turn.dataset.ready !== "1" || field.offsetParent !== null) return;
    const row = field.closest(".vote-row");
    const button = field.dataset.position
      ? field.parentNode.querySelector("button[data-slot]")
      : row && row.querySelector("button[data-vote]:not(:disabled)");
    if (!button) return;
    event.preventDefault();
    if (field.dataset.position) {
      turn.dataset.active = String(Number(field.dataset.position) - 1);
      sync(turn);
    }
    button.scrollIntoView({ block: "center" });
    button.focus({ preventScroll: true });
  });

  document.addEventListener("change", (event) => {
    const turn = event.target.closest && event.target.closest(TURN);
    if (turn) sync(turn);
  });

  function init() {
    document.querySelectorAll(TURN).forEach(setUp);
  }

  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("refapp:swapped", init);
})();
