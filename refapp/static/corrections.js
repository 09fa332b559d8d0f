// Corrections in reach: a round's "Correct" in the session page's history opens the round's
// form right there, inside the round's item; saving it, or undoing the last round, swaps the
// server's page in with the round (or the one below the round undone) kept where it stands on
// the screen. A refusal stays in the opened form, the next round's part brought into view when
// that round must change too. Without this script the link and the forms work by page loads.
(function () {
  "use strict";

  const LIVE = { "X-Refapp-Live": "1" };
  const TOAST_MS = 5000;
  let busy = false;
  let settling = false;
  let kept = null; // the correction open now, put back if another phone's news swaps the page

  function main() {
    return document.getElementById("main");
  }

  // The count live.js keeps of answers swapped in (the browser tests wait on it).
  function countSwap(status) {
    const body = document.body.dataset;
    body.swaps = String(Number(body.swaps || 0) + 1);
    body.liveStatus = String(status);
  }

  // -- places on the screen --------------------------------------------------------------------

  function mark(node) {
    return node && node.id ? { id: node.id, top: node.getBoundingClientRect().top } : null;
  }

  function keep(anchor) {
    const node = anchor && document.getElementById(anchor.id);
    if (node) window.scrollBy(0, node.getBoundingClientRect().top - anchor.top);
  }

  function onScreen(node) {
    const rect = node.getBoundingClientRect();
    return rect.top >= 0 && rect.top < window.innerHeight;
  }

  // The games' scripts lay their pickers over new fields on this event, as after live.js's swaps.
  function settle() {
    settling = true;
    try {
      document.dispatchEvent(new CustomEvent("refapp:swapped"));
    } finally {
      settling = false;
    }
  }

  function adopted(html) {
    return new DOMParser().parseFromString(html, "text/html");
  }

  // -- opening and closing a correction -------------------------------------------------------

  function linkOf(box) {
    const item = box.closest("li[id]");
    return item && item.querySelector("a[data-correct]");
  }

  function close(box) {
    const item = box.closest("li[id]");
    const link = linkOf(box);
    box.remove();
    kept = null;
    if (link) link.setAttribute("aria-expanded", "false");
    if (item && item.getBoundingClientRect().top < 0) item.scrollIntoView({ block: "start" });
  }

  // The next round's part rides in the form's sticky bar, above its buttons: whichever field
  // of this round changed, the next round is in reach without scrolling (its own fields scroll
  // inside it). Without this script it stands in the page, after this round's fields.
  function dock(box) {
    const part = box.querySelector(".next-round");
    const bar = box.querySelector(".record-bar");
    if (!part || !bar) return;
    bar.prepend(part); // styled by .record-bar > .next-round (composer.css)
    const refused = part.open && part.querySelector(".refused");
    if (refused) part.scrollTop = refused.offsetTop - part.offsetTop;
  }

  function fill(box, doc) {
    box.replaceChildren(...Array.from(doc.body.childNodes).map((node) => document.adoptNode(node)));
    dock(box);
  }

  async function open(link) {
    const item = link.closest("li[id]");
    const current = document.querySelector("#main .correction");
    if (current) {
      const same = current.closest("li[id]") === item;
      close(current); // one at a time: their fields share names
      if (same) return;
    }
    busy = true;
    try {
      const response = await fetch(link.dataset.correct, { headers: LIVE, credentials: "same-origin" });
      if (!response.ok) throw new Error(String(response.status));
      const doc = adopted(await response.text());
      const box = document.createElement("div");
      box.className = "correction";
      box.dataset.item = item.id;
      fill(box, doc);
      const anchor = mark(item);
      item.appendChild(box);
      link.setAttribute("aria-expanded", "true");
      kept = box;
      settle();
      keep(anchor);
      see();
      // a form opened low on the screen comes up under its link (less than a screen's move)
      const top = link.getBoundingClientRect().top;
      if (top > window.innerHeight / 4) window.scrollBy(0, top - link.offsetHeight / 2);
      countSwap(response.status);
    } catch (error) {
      location.assign(link.href); // the correction's own page
    } finally {
      busy = false;
    }
  }

  document.addEventListener("click", (event) => {
    const target = event.target.closest ? event.target : null;
    const link = target && target.closest("#main a[data-correct]");
    const cancel = target && target.closest("#main .correction a[data-close]");
    if (!link && !cancel) return;
    event.preventDefault();
    if (cancel) close(cancel.closest(".correction"));
    else if (!busy && window.fetch) open(link);
  });

  // Changing the next round's fields means saving that round too.
  document.addEventListener("change", (event) => {
    const part = event.target.closest && event.target.closest(".correction .next-round");
    const also = part && part.querySelector("input[name=also_next]");
    if (also && event.target !== also) also.checked = true;
  });

  // Where the open correction's round stands on the screen, kept up to date as the page scrolls.
  let seen = null;
  function see() {
    seen = kept && kept.isConnected ? mark(kept.closest("li[id]")) : null;
  }
  window.addEventListener("scroll", see, { passive: true });

  // Another phone's round swapped the page in (live.js): the open correction goes back in place,
  // its round where it stood (after live.js has kept its own anchor: a microtask runs after it).
  document.addEventListener("refapp:swapped", () => {
    if (settling || !kept || kept.isConnected) return;
    const item = document.getElementById(kept.dataset.item);
    if (!item) {
      kept = null;
      return;
    }
    item.appendChild(kept);
    const link = item.querySelector("a[data-correct]");
    if (link) link.setAttribute("aria-expanded", "true");
    const anchor = seen;
    queueMicrotask(() => keep(anchor));
  });

  // -- sending a correction or an undo ----------------------------------------------------------

  function formBody(form, submitter) {
    try {
      return new FormData(form, submitter || undefined);
    } catch (error) {
      const body = new FormData(form);
      if (submitter && submitter.name) body.append(submitter.name, submitter.value);
      return body;
    }
  }

  // A message flashed at the page's top shows for a moment where the player is, too.
  function toast(page) {
    const flash = page.querySelector("p.flash") || page.querySelector("#just strong");
    if (!flash || flash.getBoundingClientRect().top >= 0) return;
    const note = document.createElement("p");
    note.className = "live-toast";
    note.setAttribute("role", "status");
    note.textContent = flash.textContent.trim();
    document.body.appendChild(note);
    window.setTimeout(() => note.remove(), TOAST_MS);
  }

  function swapPage(fresh, anchor) {
    kept = null;
    main().replaceWith(document.adoptNode(fresh));
    if (fresh.dataset.title) document.title = fresh.dataset.title;
    settle();
    keep(anchor);
    toast(fresh);
  }

  // A refusal or a check comes back as the form alone: it replaces the open one, in place.
  function refill(box, doc, anchor) {
    fill(box, doc);
    settle();
    keep(anchor);
    // the next round's refusal shows in the sticky bar; this round's at the form's top
    const next = box.querySelector(".next-round[open] .refused");
    const shown = next ? null : box.querySelector(".refused, .checked");
    if (shown && !onScreen(shown)) shown.scrollIntoView({ block: "start" });
    const notice = next || box.querySelector(".refused");
    if (notice) notice.focus({ preventScroll: true });
  }

  function offline(form) {
    let line = form.parentNode.querySelector(".live-note[data-kind='offline']");
    if (!line) {
      line = document.createElement("p");
      line.className = "live-note";
      line.dataset.kind = "offline";
      line.setAttribute("role", "alert");
      const bar = form.querySelector(".record-bar");
      if (bar) bar.prepend(line); // in the sticky bar: seen wherever the player is
      else form.after(line);
    }
    line.textContent = main().dataset.offlineTap || "";
  }

  // What stays put after an undo: the round below the one undone in the history, else the list;
  // a form outside the history (marked data-in-place) keeps its own section.
  function stays(form, item) {
    if (!item) return form.closest("section[id]");
    return item.nextElementSibling || document.getElementById("history");
  }

  // The key of what this form sends (Idempotency-Key): a correction's own field (made by the
  // server when the form was opened), else one made at the first send and kept with the form,
  // so a second tap or a resend after a lost answer is the same write (an undo, too).
  function keyOf(form) {
    const input = form.querySelector("input[name$='idempotency_key']");
    if (input && input.value) return input.value;
    const live = window.refapp;
    if (!form.dataset.idempotencyKey && live && live.makeKey) form.dataset.idempotencyKey = live.makeKey();
    return form.dataset.idempotencyKey || "";
  }

  async function send(form, submitter) {
    const box = form.closest(".correction");
    const item = form.closest("li[id]");
    const anchor = mark(box ? item : stays(form, item));
    // live.js polls only a page whose <main> names what to poll: not while this is sent, lest
    // its refresh take the answer's flashed message first (the answer's page polls again)
    const page = main();
    const poll = page.dataset.poll;
    page.removeAttribute("data-poll");
    busy = true;
    try {
      const key = keyOf(form);
      const response = await fetch(form.getAttribute("action"), {
        method: "POST",
        body: formBody(form, submitter),
        headers: key ? Object.assign({ "Idempotency-Key": key }, LIVE) : LIVE,
        credentials: "same-origin",
      });
      const doc = adopted(await response.text());
      const fresh = doc.getElementById("main");
      if (fresh) swapPage(fresh, anchor);
      else if (box) refill(box, doc, anchor);
      else location.reload();
      countSwap(response.status);
    } catch (error) {
      offline(form);
      countSwap(0);
    } finally {
      busy = false;
      if (poll && page.isConnected) page.dataset.poll = poll;
    }
  }

  // Before live.js and table.js (capture): this script asks first, sends, and keeps the place.
  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      if (!form.matches || !form.matches("#main form[data-in-place]") || !window.fetch) return;
      event.preventDefault();
      event.stopPropagation();
      if (busy) return;
      const ask = form.dataset.confirm;
      if (ask && !window.confirm(ask)) return;
      send(form, event.submitter);
    },
    true,
  );
})();
