// The round composer: a round entered one part at a time, with nothing to scroll to.
//
// A game's round form marks its parts: data-part="key" on each, with data-part-needs (the field
// names that make the part done; "|" separates alternatives, name=value asks for one value) and
// data-part-line (the words the line shows once done, {field} for a field's value, the same
// alternatives). data-part-extra marks a part most rounds skip: a chip opens it. The composer
// shows one part at a time, moves to the next part when a tap or change inside the part shown
// completes it (a tap that opens a part never moves on), keeps a line of what the round will be
// recorded as (each piece opens its part, and shows its value once done) and opens a refused
// field's part (refusals.js brings its control into view). Without JavaScript, or with "All at
// once", the whole form shows as it is.
//
// A game asks for a part: from a script, dispatch
//   form.dispatchEvent(new CustomEvent("refapp:show-part", { bubbles: true, detail: { part: "contract" } }))
// (on the form or any node inside it); from the server's answer, mark the part data-part-show
// (it shows over the part kept across the swap: put it only on the answer that should move on).
// data-part-open marks the part a fresh page opens at when no part was kept.
(function () {
  "use strict";

  const VIEW = "refapp.composer.view";
  const memory = {}; // by form id: {round, part}, the part shown, kept across a swap of the same round

  function forms() {
    return Array.from(document.querySelectorAll("form[data-composer]"));
  }

  function parts(form) {
    return Array.from(form.querySelectorAll("[data-part]"));
  }

  function alternatives(text) {
    return (text || "").split("|").map((one) => one.trim().split(/\s+/).filter(Boolean));
  }

  function field(form, name) {
    return form.elements.namedItem(name);
  }

  function value(form, name) {
    const found = field(form, name);
    if (!found) return "";
    if (found.disabled) return "-"; // not asked of anyone this round (the storyteller's vote)
    if (found.type === "checkbox") return found.checked ? found.value || "y" : "";
    return String(found.value || "").trim();
  }

  function holds(form, need) {
    const [name, wanted] = need.split("=");
    const got = value(form, name);
    return wanted === undefined ? got !== "" : got === wanted;
  }

  // Return the index of the alternative the fields satisfy, or -1.
  function satisfied(form, part) {
    if (!part.dataset.partNeeds) return -1;
    const options = alternatives(part.dataset.partNeeds);
    return options.findIndex((needs) => needs.every((need) => holds(form, need)));
  }

  function done(form, part) {
    return satisfied(form, part) >= 0;
  }

  // A field's value as the table reads it: the option's or chip's words, never a code.
  function shown(form, name) {
    const found = field(form, name);
    if (!found) return "";
    if (found.dataset && found.dataset.shown) return found.dataset.shown;
    if (found.tagName === "SELECT") {
      const option = found.selectedOptions[0];
      return option && option.value !== "" ? option.textContent.trim() : "";
    }
    if (typeof RadioNodeList !== "undefined" && found instanceof RadioNodeList) {
      const checked = Array.from(found).find((one) => one.checked);
      const label = checked && checked.closest("label");
      return label ? (label.dataset.short || label.textContent).trim() : "";
    }
    if (found.type === "checkbox") {
      const label = found.closest("label");
      return found.checked && label ? label.textContent.trim() : "";
    }
    return String(found.value || "").trim();
  }

  function title(part) {
    if (part.dataset.partTitle) return part.dataset.partTitle;
    const legend = part.querySelector("legend, summary");
    return legend ? legend.textContent.trim() : part.dataset.part;
  }

  // Has the player changed this choice from what the page came with?
  function changed(node) {
    if (node.tagName === "SELECT") return Array.from(node.options).some((one) => one.selected !== one.defaultSelected);
    return node.checked !== node.defaultChecked;
  }

  // A part that names no needs nor line (a rare part: where the cards ended...): the choices made
  // in it on this page, after its chip's words; nothing while none is made.
  function chosen(form, part) {
    const names = [];
    part.querySelectorAll("select[name], input[type=radio][name], input[type=checkbox][name]").forEach((node) => {
      if (!node.disabled && changed(node) && !names.includes(node.name)) names.push(node.name);
    });
    const values = names.map((name) => shown(form, name)).filter(Boolean);
    return values.length ? `${part.dataset.partChip || title(part)}: ${values.join(", ")}` : "";
  }

  function line(form, part) {
    if (!part.dataset.partNeeds) return (part.dataset.partLine || "").trim() || chosen(form, part);
    const index = satisfied(form, part);
    if (index < 0) return "";
    const lines = (part.dataset.partLine || "").split("|");
    const pattern = (lines[index] !== undefined ? lines[index] : lines[0]).trim();
    if (!pattern) return "";
    return pattern.replace(/\{([^}]+)\}/g, (_match, name) => shown(form, name)).replace(/\s+/g, " ");
  }

  function words(form, key) {
    return (form.querySelector(".composer-words") || form).dataset[key] || "";
  }

  // -- the line, the chips, the part shown ------------------------------------------------------

  function build(form) {
    if (form.querySelector(".composer-line")) return;
    const top = document.createElement("div");
    top.className = "composer-line";
    top.setAttribute("role", "group");
    top.setAttribute("aria-label", words(form, "line"));
    const first = form.querySelector("[data-part]");
    first.parentNode.insertBefore(top, first);
    const more = document.createElement("div");
    more.className = "composer-more";
    more.setAttribute("role", "group");
    more.setAttribute("aria-label", words(form, "more"));
    parts(form)
      .filter((part) => part.hasAttribute("data-part-extra"))
      .forEach((part) => more.appendChild(chip(part, "composer-extra")));
    const whole = document.createElement("button");
    whole.type = "button";
    whole.className = "composer-view";
    more.appendChild(whole);
    const bar = form.querySelector(".record-bar");
    bar.parentNode.insertBefore(more, bar);
  }

  function chip(part, kind) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = kind;
    button.dataset.goto = part.dataset.part;
    return button;
  }

  function draw(form) {
    const top = form.querySelector(".composer-line");
    top.textContent = "";
    const current = form.dataset.composerPart;
    parts(form).forEach((part) => {
      const extra = part.hasAttribute("data-part-extra");
      const said = line(form, part);
      if (extra && !said && part.dataset.part !== current) return;
      const button = chip(part, "composer-part");
      button.textContent = said || title(part);
      button.classList.toggle("composer-done", Boolean(said));
      button.classList.toggle("composer-todo", !said && Boolean(part.dataset.partNeeds));
      if (part.dataset.part === current) button.setAttribute("aria-current", "step");
      top.appendChild(button);
    });
    form.querySelectorAll(".composer-extra").forEach((button) => {
      const part = form.querySelector(`[data-part="${button.dataset.goto}"]`);
      button.textContent = part.dataset.partChip || title(part);
      button.setAttribute("aria-pressed", String(button.dataset.goto === current));
    });
    const view = form.querySelector(".composer-view");
    view.textContent = form.classList.contains("composing")
      ? words(form, "all")
      : words(form, "steps");
    const ready = parts(form)
      .filter((part) => part.dataset.partNeeds && !part.hasAttribute("data-part-extra"))
      .every((part) => done(form, part));
    form.classList.toggle("composer-ready", ready);
  }

  function show(form, key) {
    form.dataset.composerPart = key;
    parts(form).forEach((part) => {
      const now = part.dataset.part === key;
      part.classList.toggle("composer-current", now);
      const details = part.matches("details") ? part : part.querySelector(":scope > details");
      if (now && details && form.classList.contains("composing")) details.open = true;
    });
    memory[form.id] = { round: roundOf(form), part: key };
    draw(form);
  }

  function roundOf(form) {
    const expected = form.querySelector("input[name=expected_round]");
    return expected ? expected.value : "";
  }

  function steps(form) {
    return parts(form).filter((part) => !part.hasAttribute("data-part-extra") && part.dataset.partNeeds);
  }

  // The first part still to do after the given one (then from the start); null when all are done.
  function nextTodo(form, after) {
    const list = steps(form);
    const start = list.findIndex((part) => part.dataset.part === after) + 1;
    const order = list.slice(start).concat(list.slice(0, start));
    const next = order.find((part) => !done(form, part));
    return next ? next.dataset.part : null;
  }

  function firstPart(form) {
    const refused = refusedPart(form);
    if (refused) return refused;
    const asked = parts(form).find((part) => part.hasAttribute("data-part-show"));
    if (asked) return asked.dataset.part;
    const kept = memory[form.id];
    if (kept && kept.round === roundOf(form) && form.querySelector(`[data-part="${kept.part}"]`)) {
      return kept.part;
    }
    const open = parts(form).find((part) => part.hasAttribute("data-part-open"));
    if (open) return open.dataset.part;
    const list = steps(form);
    return nextTodo(form, list.length ? list[list.length - 1].dataset.part : "") || list[0].dataset.part;
  }

  function refusedPart(form) {
    const link = form.querySelector(".refused a[data-field]");
    const target = link && fieldFor(link.dataset.field);
    const part = target && target.closest("[data-part]");
    return part && form.contains(part) ? part.dataset.part : null;
  }

  function setUp(form) {
    // a correction's next round keeps its whole form, in the bar below the round corrected
    form.querySelectorAll(".next-round [data-part]").forEach((inner) => {
      inner.dataset.partOff = inner.dataset.part;
      inner.removeAttribute("data-part");
    });
    if (!form.querySelector("[data-part]") || !form.querySelector(".record-bar")) return;
    build(form);
    let view = "steps";
    try {
      view = window.localStorage.getItem(VIEW) || "steps";
    } catch (error) {
      /* private mode: one part at a time */
    }
    form.classList.toggle("composing", view !== "all");
    show(form, firstPart(form));
  }

  // The values of a part's needed fields, by name (to tell which of them a tap changed).
  function snapshot(form, part) {
    const seen = {};
    alternatives(part.dataset.partNeeds).flat().forEach((need) => {
      const name = need.split("=")[0];
      seen[name] = value(form, name);
    });
    return seen;
  }

  // Does this tap complete the part shown? It was not done and now is, or it was done and the
  // tap changed the last field it needs (a dealer or storyteller picked again, a trump changed).
  function completes(form, part, before) {
    const index = satisfied(form, part);
    if (index < 0) return false;
    if (!before.done) return true;
    const needs = alternatives(part.dataset.partNeeds)[index];
    const last = needs.length ? needs[needs.length - 1].split("=")[0] : "";
    return Boolean(last) && before.values[last] !== value(form, last);
  }

  // After a tap or a change inside the part shown: once it completes the part, the next part to
  // do shows. A tap that opened another part (a chip, data-goto, refapp:show-part) never moves on.
  function settle(form, key, before) {
    const current = form.querySelector(`[data-part="${key}"]`);
    const same = form.dataset.composerPart === key;
    if (same && current && form.classList.contains("composing") && completes(form, current, before)) {
      const next = current.hasAttribute("data-part-extra") ? nextTodo(form, "") : nextTodo(form, key);
      if (next && next !== key) {
        show(form, next);
        return;
      }
    }
    draw(form);
  }

  function around(event) {
    const form = event.target.closest && event.target.closest("form[data-composer]");
    if (!form || !form.dataset.composerPart) return;
    const key = form.dataset.composerPart;
    const current = form.querySelector(`[data-part="${key}"]`);
    if (!current || !current.contains(event.target)) {
      // outside the part shown: the line only (a chip that opens a part draws it itself)
      if (!event.target.closest("[data-goto], .composer-view")) window.setTimeout(() => draw(form), 0);
      return;
    }
    const before = { done: done(form, current), values: snapshot(form, current) };
    // the game's own script answers the same event first (it fills the hidden fields)
    window.setTimeout(() => settle(form, key, before), 0);
  }

  // A part asked for by a game's script: refapp:show-part, detail {part}, on the form or inside
  // it. The part shows and comes into view; no automatic move follows.
  function asked(event) {
    const form = event.target.closest && event.target.closest("form[data-composer]");
    const key = event.detail && event.detail.part;
    if (!form || !key || !form.dataset.composerPart || !form.querySelector(`[data-part="${key}"]`)) return;
    show(form, key);
    const line = form.querySelector(".composer-line");
    const part = form.querySelector(`[data-part="${key}"]`);
    if (line && (line.getBoundingClientRect().top < 0 || part.getBoundingClientRect().top > innerHeight / 2)) {
      window.scrollBy(0, line.getBoundingClientRect().top - 8);
    }
  }

  // The field a refusal names: by its id, else by its name (a group of radio chips), else the
  // first of its choices (WTForms numbers them id-0, id-1, ...). refusals.js leads to it.
  function fieldFor(id) {
    return (
      document.getElementById(id) ||
      document.querySelector(`[name="${CSS.escape(id)}"]`) ||
      document.getElementById(`${id}-0`)
    );
  }

  document.addEventListener("click", (event) => {
    const go = event.target.closest && event.target.closest("form[data-composer] [data-goto]");
    if (go) {
      const form = go.closest("form");
      show(form, go.dataset.goto);
      return;
    }
    const view = event.target.closest && event.target.closest(".composer-view");
    if (view) {
      const form = view.closest("form");
      const steps = !form.classList.contains("composing");
      form.classList.toggle("composing", steps);
      try {
        window.localStorage.setItem(VIEW, steps ? "steps" : "all");
      } catch (error) {
        /* private mode: for this page only */
      }
      // the part shown may have been taken out meanwhile (a game's moot part): open the first
      if (steps && !form.querySelector(`[data-part="${form.dataset.composerPart}"]`)) {
        show(form, firstPart(form));
      } else {
        draw(form);
      }
    }
  });
  // before the game's own scripts fill the fields: was the part done before this tap?
  document.addEventListener("click", around, true);
  document.addEventListener("change", around, true);
  document.addEventListener("refapp:show-part", asked);

  function init() {
    forms().forEach(setUp);
  }

  // The page opens at the round to enter (after the round just recorded), not at its top.
  function opening() {
    init();
    const form = forms()[0];
    if (!form || !form.classList.contains("composing") || location.hash) return;
    const start = document.getElementById("just") || form.closest("#record");
    if (start && Math.abs(start.getBoundingClientRect().top) > 1) start.scrollIntoView({ block: "start" });
  }

  document.addEventListener("DOMContentLoaded", opening);
  document.addEventListener("refapp:swapped", init);
})();
