// Nothing lost: every round the table records waits on the phone (localStorage, at most
// data-queue-cap rounds) until the server has stored it. Rounds entered with no connection
// wait in order while the form moves on to the next round; each is sent, in order, when the
// connection is back. Each entry carries the key it was started with (its idempotency_key
// field, sent as Idempotency-Key too): a resend, a second tap, "record mine as round N+1" or
// a retry after a lost answer is stored at most once. A waiting round the server refuses stops
// the queue until the table records or discards it; one whose sign-in or CSRF token lapsed
// waits for signin-again.js.
(function () {
  "use strict";

  const live = window.refapp;
  if (!live || !live.signInAgain || !window.fetch) return;
  const again = live.signInAgain;
  //: how soon a waiting round is sent again: the app's RETRY_MS (body data-retry-ms)
  const RETRY_MS = Number(document.body.dataset.retryMs) || 4000;
  const KEY = "refapp-queue:";
  //: the rounds waiting, oldest first: {action, entries, held (refused, the table decides),
  //: front (sent from the form on screen: its refusal is simply shown, as without a queue)}
  let items = [];
  let sending = false;
  let retryTimer = null;

  function main() {
    return document.getElementById("main");
  }

  function storageKey() {
    const node = main();
    return node && node.dataset.session ? KEY + node.dataset.session : null;
  }

  function load() {
    const key = storageKey();
    if (!key) return [];
    try {
      const kept = JSON.parse(window.localStorage.getItem(key) || "[]");
      return Array.isArray(kept) ? kept.filter((item) => item && Array.isArray(item.entries)) : [];
    } catch (error) {
      return [];
    }
  }

  function save() {
    const key = storageKey();
    if (!key) return;
    try {
      if (items.length) window.localStorage.setItem(key, JSON.stringify(items));
      else window.localStorage.removeItem(key);
    } catch (error) {
      /* private mode or full: the rounds wait in memory for as long as the page is open */
    }
  }

  function cap() {
    return Number(live.words("queueCap")) || 50;
  }

  function said(key, n) {
    return live.words(key).replace("{n}", String(n));
  }

  function roundWord(n) {
    return live.words("queueRound").replace(live.words("queueNumber"), String(n));
  }

  function field(entries, name) {
    const found = entries.find(([key]) => key === name);
    return found ? String(found[1]) : "";
  }

  function numberOf(item) {
    return Number(field(item.entries, "expected_round")) || 0;
  }

  // The same round entered: every field alike but the sign-in's token.
  function same(one, other) {
    const text = (entries) => JSON.stringify(entries.filter(([name]) => name !== "csrf_token"));
    return text(one) === text(other);
  }

  function withField(entries, name, value) {
    return entries.map(([key, old]) => [key, key === name ? String(value) : old]);
  }

  function roundForm() {
    return document.querySelector("#main form[data-keep]");
  }

  // -- what the table sees ---------------------------------------------------------------------

  // The panel by the form: how many rounds wait, which, and where the queue stopped.
  function render() {
    let panel = document.getElementById("queue");
    const section = document.getElementById("record");
    if (!items.length || !section) {
      if (panel) panel.remove();
      return;
    }
    if (!panel) {
      panel = document.createElement("div");
      panel.id = "queue";
      panel.className = "queue";
      panel.setAttribute("role", "status");
    }
    const form = section.querySelector("form[data-keep]");
    if (form) form.before(panel);
    else section.prepend(panel);
    panel.replaceChildren();
    const count = document.createElement("p");
    count.className = "queue-count";
    count.textContent = said("queueCount", items.length);
    panel.append(count);
    if (items[0].held) {
      const held = document.createElement("p");
      held.className = "error queue-held";
      held.textContent = said("queueHeld", numberOf(items[0]));
      panel.append(held);
    }
    const list = document.createElement("ol");
    list.className = "queue-rounds";
    items.forEach((item, index) => {
      const line = document.createElement("li");
      line.dataset.round = String(numberOf(item));
      line.textContent = roundWord(numberOf(item));
      if (index === 0 && item.held) {
        line.dataset.held = "1";
        const drop = document.createElement("a");
        drop.href = item.action.replace(/\/rounds$/, "");
        drop.className = "button secondary";
        drop.dataset.discard = "1"; // as the stale choice's own "Discard mine"
        drop.textContent = said("queueDiscard", numberOf(item));
        line.append(" ", drop);
      }
      list.append(line);
    });
    panel.append(list);
  }

  // The form moves on to the round after the one just kept: the page's blank form (game
  // scripts dress it again), numbered for that round.
  function advance(form, sent) {
    const next = Number(field(sent, "expected_round")) + 1;
    const blank = live.pristine();
    let fresh = form;
    if (blank) {
      const holder = document.createElement("template");
      holder.innerHTML = blank;
      fresh = holder.content.firstElementChild;
      form.replaceWith(fresh);
    } else {
      form.reset();
      delete form.dataset.dirty;
    }
    fresh.querySelectorAll(".live-note, .refused, .stale").forEach((node) => node.remove());
    const expected = fresh.querySelector("input[name=expected_round]");
    if (expected) expected.value = String(next);
    const token = fresh.querySelector("input[name=csrf_token]");
    if (token && field(sent, "csrf_token")) token.value = field(sent, "csrf_token");
    live.newKey(fresh); // the next round is a new entry: a new key
    setNumbers(fresh, next);
    document.dispatchEvent(new CustomEvent("refapp:swapped"));
    return fresh;
  }

  // The heading and the record button name the round the form will record.
  function setNumbers(form, next) {
    const section = form.closest("section");
    const heading = section && section.querySelector("h2");
    [heading, live.recordButton(form)].forEach((node) => {
      if (node) node.textContent = node.textContent.replace(/\d+/, String(next));
    });
  }

  // After a swap (another phone, a background refresh) the form stays after the waiting rounds.
  function keepInStep() {
    const form = roundForm();
    if (!items.length || items[0].held || !form || form.dataset.queueHead) return;
    const last = items[items.length - 1];
    const next = numberOf(last) + 1;
    if (!form.dataset.dirty) {
      if (Number(live.expected(form)) !== next) advance(form, last.entries);
      return;
    }
    live.clearNotice(form, "moved");
    setNumbers(form, next);
  }

  // -- sending, in order -----------------------------------------------------------------------

  // A round from the form (live.js hands over every storing submit of form[data-keep]).
  function submit(form, entries, anchor) {
    const head = items[0];
    if (head && head.held && form.dataset.queueHead) {
      // the table's answer to the held round: the rounds after it follow it
      const shift = Number(field(entries, "expected_round")) - numberOf(head);
      items.slice(1).forEach((item) => {
        item.entries = withField(item.entries, "expected_round", numberOf(item) + shift);
      });
      // the same entry (its key kept), now aimed at the round the table chose
      items[0] = { action: head.action, entries: entries, front: false };
      delete form.dataset.queueHead;
      save();
      // the choice is made: the stale panel goes, the form moves on past the waiting rounds
      advance(form, items[items.length - 1].entries);
      render();
      pump(null);
      return;
    }
    if (items.some((item) => same(item.entries, entries))) return; // a second tap on a waiting round
    if (items.length >= cap()) {
      live.notice(form, "full", live.words("queueFull"));
      return;
    }
    const front = items.length === 0;
    items.push({ action: form.getAttribute("action"), entries: entries, front: front });
    save();
    if (!front) {
      advance(form, entries);
      render();
    }
    pump(anchor);
  }

  function scheduleRetry() {
    if (retryTimer === null) retryTimer = window.setTimeout(retry, RETRY_MS);
  }

  function retry() {
    retryTimer = null;
    pump(null);
  }

  // Send the waiting rounds one at a time, oldest first, until one is refused or none is left.
  async function pump(anchor) {
    if (sending || again.needed() || !items.length || items[0].held) return;
    if (live.isBusy()) {
      scheduleRetry();
      return;
    }
    sending = true;
    live.setBusy(true);
    try {
      while (items.length && !items[0].held && !again.needed()) {
        if (!(await sendHead(anchor))) break;
      }
    } finally {
      sending = false;
      live.setBusy(false);
      render();
    }
  }

  // Send the oldest round; return true when the next one may follow.
  async function sendHead(anchor) {
    const item = items[0];
    let got;
    try {
      got = await live.post(item.action, item.entries);
    } catch (error) {
      wentOffline(item);
      return false;
    }
    if (got.response.status >= 500) {
      wentOffline(item); // busy or down for a moment: the same round is sent again later
      return false;
    }
    const form = roundForm();
    if (form) live.clearNotice(form, "offline");
    const lapsed = live.again(got.response);
    if (lapsed) {
      again.ask(lapsed, () => pump(anchor));
      return false;
    }
    const stored = got.response.ok && got.response.redirected;
    items.shift();
    if (stored) {
      save();
      // the last one shows its round; a form being filled in meanwhile is kept
      if (!items.length) live.answer(got, item.front ? anchor : null, !item.front);
      return true;
    }
    if (!item.front) {
      item.held = true; // the table decides; nothing after it is sent until then
      items.unshift(item);
    }
    save();
    live.answer(got, anchor, false);
    const shown = roundForm();
    if (item.held && shown) shown.dataset.queueHead = "1";
    return false;
  }

  function wentOffline(item) {
    live.countSwap(0);
    const form = roundForm();
    if (item.front && form) {
      item.front = false; // it waits now: the form moves on to the next round
      save();
      advance(form, item.entries);
    }
    const shown = roundForm();
    live.notice(shown, "offline", live.words("offline"));
    render();
    const panel = document.getElementById("queue");
    if (panel) panel.scrollIntoView({ block: "nearest" });
    scheduleRetry();
  }

  // -- the table's decisions, and what survives a swap or a reload ------------------------------

  document.addEventListener("click", (event) => {
    const discard = event.target.closest && event.target.closest("a[data-discard]");
    if (!discard || !items.length || !items[0].held) return;
    items.shift(); // the page load that follows shows the next round's blank form
    save();
  });

  document.addEventListener("refapp:swapped", () => {
    keepInStep();
    render();
  });

  window.addEventListener("online", () => {
    if (retryTimer !== null) window.clearTimeout(retryTimer);
    retryTimer = null;
    pump(null);
  });

  // a new sign-in's token goes into every waiting round
  again.onToken((token) => {
    items.forEach((item) => {
      item.entries = withField(item.entries, "csrf_token", token);
    });
    save();
  });

  live.queue = { submit: submit, size: () => items.length };

  items = load();
  if (items.length) {
    items.forEach((item) => {
      item.front = false; // after a reload every kept round is a waiting one
      item.held = false; // sent again: a refusal comes back and is shown again
    });
    const form = roundForm();
    const last = items[items.length - 1];
    if (form && Number(live.expected(form)) <= numberOf(last)) {
      advance(form, last.entries);
    }
    render();
    document.addEventListener("DOMContentLoaded", () => pump(null));
  }
})();
