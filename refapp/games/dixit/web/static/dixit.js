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

  // Ask the composer to show a part (the form goes on to it); the whole form ("All at once")
  // and a page without the composer stay as they are.
  function showPart(turn, key) {
    const form = turn.closest("form");
    if (!form || !form.classList.contains("composing")) return;
    if (!key) return;
    turn.dispatchEvent(new CustomEvent("refapp:show-part", { bubbles: true, detail: { part: key } }));
  }

  // -- the storyteller: one tap on a name, then on to the first part still to do ---------------

  function tapTeller(turn, name) {
    const select = turn.querySelector("select[data-storyteller]");
    if (!select) return;
    select.value = name;
    fire(select);
    showPart(turn, nextAfterTeller(turn));
  }

  // The part after the storyteller: the cards while one has no owner, else the first group of
  // votes with a voter still to vote, else none (the form stays where it is).
  function nextAfterTeller(turn) {
    const cards = turn.querySelector("[data-part=cards]");
    if (cards && positions(turn).some((select) => !select.value)) return cards.dataset.part;
    const groups = Array.from(turn.querySelectorAll(".vote-group[data-part]"));
    const open = groups.find((group) => waiting(turn, group).length > 0);
    return open ? open.dataset.part : "";
  }

  function syncTellers(turn) {
    const teller = storyteller(turn);
    turn.querySelectorAll("button[data-teller]").forEach((button) => {
      button.setAttribute("aria-pressed", String(button.dataset.teller === teller));
    });
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

  function votesOf(row) {
    return voteSelects(row)
      .map((select) => select.value)
      .filter((value) => value);
  }

  // The voters of a group still to vote (the storyteller votes with nothing).
  function waiting(turn, group) {
    const teller = storyteller(turn);
    return Array.from(group.querySelectorAll(".vote-row")).filter(
      (row) => row.dataset.voter !== teller && votesOf(row).length === 0
    );
  }

  // A tapped card is voted for (in the first free vote, else in place of the last one);
  // a card voted for taps back out.
  function tapVote(row, number) {
    const selects = voteSelects(row);
    const votes = votesOf(row);
    const taken = votes.indexOf(number);
    if (taken >= 0) votes.splice(taken, 1);
    else if (votes.length < selects.length) votes.push(number);
    else votes[votes.length - 1] = number;
    selects.forEach((select, index) => {
      select.value = votes[index] || "";
    });
    hold(row, selects.length);
    selects.forEach(fire);
  }

  // -- two votes each: the group keeps the voter whose first vote completed it ------------------
  // Until that voter casts a second vote, taps "one vote" or leaves for another part, the group's
  // unnamed field holds their name, so the composer does not move on (and hide their row).

  function holdField(group) {
    return group ? group.querySelector("input[data-hold]") : null;
  }

  function hold(row, most) {
    const group = row.closest(".vote-group");
    const field = holdField(group);
    if (!field || !row.closest("form.composing")) return; // the whole form moves nowhere
    const turn = row.closest(TURN);
    const votes = votesOf(row).length;
    const completed = votes === 1 && waiting(turn, group).length === 0 && field.value === "";
    if (completed && most > 1 && elsewhere(turn, group)) field.value = row.dataset.voter;
    else if (field.value === row.dataset.voter && votes !== 1) field.value = "";
  }

  // Is anything left to do outside this group (so the composer would move on)?
  function elsewhere(turn, group) {
    if (positions(turn).some((select) => !select.value)) return true;
    return Array.from(turn.querySelectorAll(".vote-group"))
      .filter((other) => other !== group)
      .some((other) => waiting(turn, other).length > 0);
  }

  function release(group) {
    const field = holdField(group);
    if (field && field.value) {
      field.value = "";
      fire(field);
    }
  }

  // The storyteller does not vote: their row is dimmed and its votes are not sent. Nobody votes
  // for their own card: its number is greyed in their row (a vote on it, left from other owners,
  // is taken back). The held voter's row offers "one vote".
  function syncVotes(turn) {
    const teller = storyteller(turn);
    const owners = positions(turn).map((select) => select.value);
    turn.querySelectorAll(".vote-row").forEach((row) => {
      const telling = row.dataset.voter === teller;
      row.classList.toggle("storyteller", telling);
      const selects = voteSelects(row);
      if (turn.dataset.ready === "1") {
        selects.forEach((select) => {
          select.disabled = telling;
          if (select.value && owners[Number(select.value) - 1] === row.dataset.voter) {
            select.value = "";
            fire(select);
          }
        });
      }
      const votes = selects.map((select) => select.value);
      row.querySelectorAll("button[data-vote]").forEach((button) => {
        const own = owners[Number(button.dataset.vote) - 1] === row.dataset.voter;
        button.disabled = telling || own;
        button.classList.toggle("dx-own", own && !telling);
        button.setAttribute("aria-pressed", String(!telling && votes.includes(button.dataset.vote)));
      });
      const held = holdField(row.closest(".vote-group"));
      const one = row.querySelector("button[data-one-vote]");
      if (one) one.hidden = !held || held.value !== row.dataset.voter;
    });
  }

  // -- the whole form ---------------------------------------------------------------------------

  function sync(turn) {
    syncVotes(turn);
    syncTellers(turn);
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
    else if (button.hasAttribute("data-one-vote")) release(button.closest(".vote-group"));
    else if (button.dataset.teller) tapTeller(turn, button.dataset.teller);
    sync(turn);
  });

  // A tap outside a held group (a chip of the line, another part, Record) lets its voter go.
  document.addEventListener(
    "click",
    (event) => {
      const form = event.target.closest && event.target.closest("form");
      if (!form) return;
      form.querySelectorAll(".vote-group").forEach((group) => {
        if (!group.contains(event.target)) release(group);
      });
    },
    true
  );

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
