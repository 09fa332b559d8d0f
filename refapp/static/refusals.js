// A refusal leads to its control: a tap on a refusal's link (.refused a[data-field]) opens the
// part of the round that holds its field (composer.js, through refapp:show-part), marks the
// control a player taps to mend it, scrolls it wholly into view above the sticky record bar and
// focuses it - a button, chip, select or checkbox, never a text box (a phone would open its
// keyboard): a text box's own chip pad (data-for="its id") or its row stands for it.
(function () {
  "use strict";

  const TEXT = "input:not([type=checkbox]):not([type=radio]):not([type=hidden]):not([type=button]):not([type=submit]), textarea";
  const TAPPABLE =
    "button:not([disabled]), select:not([disabled]), input[type=checkbox]:not([disabled]), input[type=radio]:not([disabled])";

  function visible(node) {
    return Boolean(node && node.getClientRects().length > 0);
  }

  // The field a refusal names: by its id, else by its name (a group of radio chips), else the
  // first of its choices (WTForms numbers them id-0, id-1, ...).
  function fieldFor(id) {
    return (
      document.getElementById(id) ||
      document.querySelector(`[name="${CSS.escape(id)}"]`) ||
      document.getElementById(`${id}-0`)
    );
  }

  // What a player taps to mend the field: the field itself unless it is a text box or hidden,
  // else the chips laid over it, its group of chips, its row; a group's refusal (data-group)
  // stands for the part or fieldset around it.
  function control(target) {
    if (target.hasAttribute("data-group")) {
      const around = target.parentElement.closest("fieldset, [data-part], .field");
      return visible(around) ? around : target;
    }
    if (visible(target) && !target.matches(TEXT)) return target;
    const over = target.id && document.querySelector(`[data-for="${CSS.escape(target.id)}"]`);
    if (visible(over)) return over;
    const chips = target.closest("[role=radiogroup], [data-chip-group]");
    if (visible(chips)) return chips;
    const row = target.closest(".field, fieldset, .dal-row, .vote-row, [data-part]");
    if (visible(row)) return row;
    return visible(target) ? target : target.closest("[data-part]");
  }

  // The foot of what a player sees: the top of the record bar stuck at the screen's foot.
  function foot(node) {
    const form = node.closest("form");
    const bar = form && form.querySelector(":scope .record-bar");
    const sticky = bar && visible(bar) && getComputedStyle(bar).position === "sticky";
    return window.innerHeight - (sticky ? bar.getBoundingClientRect().height : 0);
  }

  // Scroll so that the node is wholly on screen above the record bar (its top, when it is taller).
  function bringIntoView(node) {
    const margin = 8;
    const box = node.getBoundingClientRect();
    const bottom = foot(node) - margin;
    let by = 0;
    if (box.top < margin) by = box.top - margin;
    else if (box.bottom > bottom) by = Math.min(box.bottom - bottom, box.top - margin);
    if (by) window.scrollBy(0, by);
  }

  function focusOn(shownControl) {
    let first = shownControl.matches(TAPPABLE) ? shownControl : shownControl.querySelector(TAPPABLE);
    if (first && first.type === "radio") {
      const group = shownControl.querySelector(`input[type=radio][name="${CSS.escape(first.name)}"]:checked`);
      first = group || first;
    }
    if (!first) {
      if (!shownControl.hasAttribute("tabindex")) shownControl.setAttribute("tabindex", "-1");
      first = shownControl;
    }
    first.focus({ preventScroll: true });
  }

  function lead(link) {
    const target = fieldFor(link.dataset.field);
    if (!target) return;
    target.dispatchEvent(new CustomEvent("refapp:show-part", { bubbles: true, detail: { part: partOf(target) } }));
    const shownControl = control(target);
    if (!shownControl) return;
    document.querySelectorAll(".refusal-mark").forEach((node) => node.classList.remove("refusal-mark"));
    shownControl.classList.add("refusal-mark");
    bringIntoView(shownControl);
    focusOn(shownControl);
  }

  function partOf(target) {
    const part = target.closest("[data-part]");
    return part ? part.dataset.part : "";
  }

  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest(".refused a[data-field]");
    if (!link) return;
    event.preventDefault();
    lead(link);
  });
})();
