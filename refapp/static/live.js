// In-place pages: forms marked data-live are sent in the background and the server's <main>
// is swapped in where the player is; the session page follows the session's version so every
// phone at the table stays in step: by its event stream when <main> names one (data-stream,
// refapp's own server), else - or when the stream keeps failing - by polling it (a 304 when
// nothing changed). A round is handed to
// queue.js, which keeps it on the phone until it is stored. Without this script every form
// still works by plain page loads.
(function () {
  "use strict";

  const LIVE = { "X-Refapp-Live": "1" };
  //: how often the session page asks for the version: the app's POLL_MS (body data-poll-ms)
  const POLL_MS = Number(document.body.dataset.pollMs) || 2000;
  //: stream failures in a row after which the page polls instead, until it is shown again
  const STREAM_TRIES = 3;
  //: how soon a version the page could not show yet (busy, no connection) is tried again
  const FOLLOW_MS = 400;
  //: a stream sends the version at once: one silent this long is held back (a buffering
  //: proxy), and the page polls instead
  const FIRST_EVENT_MS = 5000;
  let busy = false;
  let pollTimer = null;
  //: the session's event stream while one is open, the address it follows, its failures
  let source = null;
  let sourceUrl = "";
  let failures = 0;
  let streamOff = false;
  //: the last version the stream told, and the timer trying it again
  let latest = "";
  let followTimer = null;
  let silentTimer = null;
  //: the round form as the server sent it, before anyone typed: the next round starts from it
  let pristine = null;

  function main() {
    return document.getElementById("main");
  }

  function words(key) {
    const node = main();
    return (node && node.dataset[key]) || "";
  }

  // -- swapping the server's <main> in ---------------------------------------------------------

  // The section, fieldset or box around a node, and where it stands on the screen now.
  function anchorOf(node) {
    const box = node && node.closest("fieldset[id], details[id], section[id], div[id], li[id]");
    return box ? { id: box.id, top: box.getBoundingClientRect().top } : null;
  }

  // The first box with an id that is on screen: what a background refresh keeps in place.
  function anchorOnScreen() {
    const boxes = document.querySelectorAll("#main section[id], #main fieldset[id], #main li[id]");
    for (const box of boxes) {
      const rect = box.getBoundingClientRect();
      if (rect.bottom > 0) return { id: box.id, top: rect.top };
    }
    return null;
  }

  function restore(anchor) {
    const box = anchor && document.getElementById(anchor.id);
    if (box) window.scrollBy(0, box.getBoundingClientRect().top - anchor.top);
    return Boolean(box);
  }

  function countSwap(status) {
    const body = document.body.dataset;
    body.swaps = String(Number(body.swaps || 0) + 1);
    body.liveStatus = String(status);
  }

  // Put the server's <main> in place of ours; a form being filled in may be kept as it is.
  function swap(html, keepForm) {
    const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("main");
    const old = main();
    if (!fresh || !old) return false;
    const blank = fresh.querySelector("form[data-keep]");
    if (blank && !blank.querySelector(".refused")) pristine = blank.outerHTML;
    const mine = keepForm && old.querySelector("form[data-keep][data-dirty]");
    const theirs = mine && fresh.querySelector("form[data-keep]");
    if (mine && theirs && mine.getAttribute("action") === theirs.getAttribute("action")) {
      theirs.replaceWith(mine);
      if (behind(mine, theirs)) {
        notice(mine, "moved", fresh.dataset.moved);
        // the entry leads to the stale choice: its button names the round the page is at
        const button = recordButton(mine);
        const named = recordButton(theirs);
        if (button && named) button.textContent = named.textContent;
      }
    }
    // what the player opened stays open (e.g. the join code): <details> with an id
    const opened = Array.from(old.querySelectorAll("details[id][open]")).map((box) => box.id);
    opened.forEach((id) => {
      const box = fresh.querySelector(`details[id="${CSS.escape(id)}"]`);
      if (box) box.open = true;
    });
    old.replaceWith(document.adoptNode(fresh));
    if (fresh.dataset.title) document.title = fresh.dataset.title;
    document.dispatchEvent(new CustomEvent("refapp:swapped"));
    return true;
  }

  function expected(form) {
    const input = form && form.querySelector("input[name=expected_round]");
    return input ? input.value : "";
  }

  // Is the kept entry for a round another phone has recorded since?
  function behind(mine, theirs) {
    return expected(mine) !== expected(theirs);
  }

  function recordButton(form) {
    return form.querySelector(".record-bar button[name=action][value=record]");
  }

  // A line at the top of a form (no connection, another phone moved on); one of each kind.
  function notice(form, kind, message) {
    if (!form || !message) return;
    let line = form.querySelector(".live-note[data-kind='" + kind + "']");
    if (!line) {
      line = document.createElement("p");
      line.className = "live-note";
      line.dataset.kind = kind;
      line.setAttribute("role", "alert");
      form.insertBefore(line, form.firstChild);
    }
    line.textContent = message;
  }

  function clearNotice(form, kind) {
    const line = form && form.querySelector(".live-note[data-kind='" + kind + "']");
    if (line) line.remove();
  }

  // Show what happened where the player is: a refusal, the round just recorded, or the same spot.
  function place(anchor) {
    const refused = document.getElementById("refused");
    if (refused) {
      const link = refused.querySelector("a[data-field]");
      const field = link && document.getElementById(link.dataset.field);
      refused.scrollIntoView({ block: "start" });
      // the field when it is on screen too (never a text box: a phone would open its keyboard),
      // else the list whose links lead to each field
      const typed = field && field.matches("input:not([type=checkbox]):not([type=radio]), textarea");
      const seen = field && !typed && field.offsetParent !== null && field.getBoundingClientRect().bottom <= window.innerHeight;
      (seen ? field : refused).focus({ preventScroll: true });
      return;
    }
    const just = document.getElementById("just");
    if (just) {
      just.scrollIntoView({ block: "start" });
      just.focus({ preventScroll: true });
      return;
    }
    if (!restore(anchor)) window.scrollTo(0, 0);
    toastFlash();
  }

  // A message flashed at the page's top shows for a moment where the player is, too.
  function toastFlash() {
    const flash = document.querySelector("#main p.flash");
    if (!flash || flash.getBoundingClientRect().top >= 0) return;
    const toast = document.createElement("p");
    toast.className = "live-toast";
    toast.setAttribute("role", "status");
    toast.textContent = flash.textContent;
    document.body.appendChild(toast);
    window.setTimeout(() => toast.remove(), 5000);
  }

  // -- sending a form --------------------------------------------------------------------------

  function formBody(form, submitter) {
    let body;
    try {
      body = new FormData(form, submitter || undefined);
    } catch (error) {
      body = new FormData(form);
      if (submitter && submitter.name) body.append(submitter.name, submitter.value);
    }
    return body;
  }

  function pageUrl(response) {
    const url = new URL(response.url);
    url.searchParams.delete("just");
    return url.pathname + url.search;
  }

  // -- one key per entry (Idempotency-Key): every resend of the entry is stored at most once ---

  function makeKey() {
    const crypto = window.crypto;
    if (crypto && crypto.randomUUID) return crypto.randomUUID();
    const bytes = new Uint8Array(16);
    if (crypto && crypto.getRandomValues) crypto.getRandomValues(bytes);
    else bytes.forEach((_, index) => (bytes[index] = Math.floor(Math.random() * 256)));
    return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  }

  function keyInput(form) {
    return form && form.querySelector("input[name=idempotency_key]");
  }

  // A new entry (the next round's form, a discard) gets a new key.
  function newKey(form) {
    const input = keyInput(form);
    if (input) input.value = makeKey();
  }

  // A round form without a key (a page kept for every phone sends none) starts its entry here;
  // a form that came back with its entry (a refusal, another phone first) keeps its key.
  function keyForms() {
    document.querySelectorAll("#main form[data-keep]").forEach((form) => {
      const input = keyInput(form);
      if (input && !input.value) input.value = makeKey();
    });
  }

  function keyOf(entries) {
    const found = entries.find(([name]) => /(^|-)idempotency_key$/.test(name));
    return found && found[1] ? String(found[1]) : "";
  }

  // Post a form's entries (with the entry's key as a header too); a network failure throws
  // (the caller keeps what it sent).
  async function post(action, entries) {
    const body = new FormData();
    entries.forEach(([name, value]) => body.append(name, value));
    const key = keyOf(entries);
    const response = await fetch(action || location.pathname, {
      method: "POST",
      body: body,
      headers: key ? Object.assign({ "Idempotency-Key": key }, LIVE) : LIVE,
      credentials: "same-origin",
    });
    return { response: response, html: await response.text() };
  }

  // What a write whose sign-in or CSRF token lapsed needs before it is sent again ("sign-in",
  // "token"), or "" for any other answer: such an answer is never swapped in over the entry.
  function again(response) {
    const need = response.headers.get("X-Refapp-Again");
    if (need) return need;
    const signIn = words("signIn");
    return response.redirected && signIn && new URL(response.url).pathname === signIn ? "sign-in" : "";
  }

  // Show the server's answer in place (a plain page load when it is no page of ours).
  function answer(got, anchor, keepForm) {
    const response = got.response;
    if (!swap(got.html, Boolean(keepForm))) {
      location.assign(response.url);
      return;
    }
    if (response.redirected) history.replaceState(null, "", pageUrl(response));
    const fresh = document.querySelector("#main form[data-keep]");
    if (fresh && !response.redirected) fresh.dataset.dirty = "1"; // the entry came back
    countSwap(response.status);
    place(anchor);
  }

  // The buttons that store a round are the server's (the form's data-storing); no button named
  // is "record", as on the server.
  function stores(form, entries) {
    const action = entries.find(([name]) => name === "action");
    const storing = (form.dataset.storing || "record").split(" ");
    return storing.includes(action ? String(action[1]) : "record");
  }

  async function submit(form, submitter) {
    const entries = Array.from(formBody(form, submitter).entries()).filter(
      ([, value]) => typeof value === "string",
    );
    const anchor = anchorOf(submitter || form);
    const queue = window.refapp.queue;
    // a new round (the session's /rounds), not a correction of one
    const isNew = /\/rounds$/.test(form.getAttribute("action") || "");
    if (queue && isNew && form.hasAttribute("data-keep") && stores(form, entries)) {
      queue.submit(form, entries, anchor); // a round: kept on the phone until it is stored
      return;
    }
    if (busy) return; // one answer at a time; a round is kept by the queue even then
    busy = true;
    try {
      const got = await post(form.getAttribute("action"), entries);
      const need = again(got.response);
      const signIn = window.refapp.signInAgain;
      if (need && signIn) signIn.ask(need, () => submit(form, submitter));
      else answer(got, anchor, false);
      clearNotice(form, "offline");
    } catch (error) {
      countSwap(0);
      notice(form, "offline", words("offlineTap"));
      form.scrollIntoView({ block: "start" });
    } finally {
      busy = false;
    }
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (event.defaultPrevented || !form.matches("form[data-live]") || !window.fetch) return;
    event.preventDefault();
    submit(form, event.submitter);
  });

  // -- every phone in step ---------------------------------------------------------------------

  function dirty(event) {
    const form = event.target.closest && event.target.closest("form[data-keep]");
    if (form) form.dataset.dirty = "1";
  }
  document.addEventListener("input", dirty);
  document.addEventListener("change", dirty);
  document.addEventListener("click", dirty);

  async function poll() {
    const node = main();
    if (!node || !node.dataset.poll || busy || document.hidden) return;
    let response;
    try {
      response = await fetch(node.dataset.poll, {
        headers: { "If-None-Match": '"' + node.dataset.version + '"' },
        cache: "no-store",
        credentials: "same-origin",
      });
    } catch (error) {
      return; // no connection: the next poll tries again
    }
    if (response.status !== 200) return;
    const session = await response.json();
    if (String(session.version) === node.dataset.version || busy) return;
    await refresh();
  }

  // Bring the page up to date in the background, keeping a form being filled in.
  async function refresh() {
    const anchor = anchorOnScreen();
    busy = true;
    try {
      const response = await fetch(location.pathname + location.search, {
        headers: LIVE,
        credentials: "same-origin",
      });
      if (response.ok && swap(await response.text(), true)) {
        restore(anchor);
        countSwap(response.status);
        return true;
      }
    } catch (error) {
      /* no connection: the next poll (or the stream's next try) tries again */
    } finally {
      busy = false;
    }
    return false;
  }

  function startPolling() {
    stopPolling();
    const node = main();
    if (node && node.dataset.poll && !document.hidden) pollTimer = window.setInterval(poll, POLL_MS);
  }

  // -- following the session's event stream ----------------------------------------------------

  // The stream told a version: show it unless the page shows it already; a page busy sending
  // (or whose refresh failed) tries again shortly, as long as it is behind.
  async function follow(version) {
    latest = String(version);
    window.clearTimeout(followTimer);
    followTimer = null;
    const node = main();
    if (!node || !source || latest === node.dataset.version || document.hidden) return;
    if (busy || !node.dataset.poll || !(await refresh())) {
      followTimer = window.setTimeout(() => follow(latest), FOLLOW_MS);
    }
  }

  function closeStream() {
    if (source) source.close();
    source = null;
    sourceUrl = "";
    window.clearTimeout(followTimer);
    followTimer = null;
    window.clearTimeout(silentTimer);
    silentTimer = null;
  }

  // The stream failed (the connection dropped, or the server holds none: a 204): poll until it
  // is back; past STREAM_TRIES failures in a row, or when it will not come back, poll instead.
  function streamFailed() {
    failures += 1;
    if (!source || source.readyState === EventSource.CLOSED || failures >= STREAM_TRIES) {
      closeStream();
      streamOff = true;
    }
    if (!pollTimer) startPolling();
  }

  // Open the stream <main> names (kept when it is the one open); false when the page polls.
  function openStream() {
    const node = main();
    const url = (node && node.dataset.stream) || "";
    if (source && url === sourceUrl) return true;
    closeStream();
    if (!url || !window.EventSource || streamOff || document.hidden) return false;
    source = new EventSource(url);
    sourceUrl = url;
    silentTimer = window.setTimeout(() => {
      closeStream(); // nothing came through: a proxy holds the stream back
      streamOff = true;
      if (!pollTimer) startPolling();
    }, FIRST_EVENT_MS);
    source.addEventListener("version", (event) => {
      failures = 0;
      window.clearTimeout(silentTimer);
      silentTimer = null;
      stopPolling(); // the stream is open: no poll runs beside it
      let told = null;
      try {
        told = JSON.parse(event.data).version;
      } catch (error) {
        return;
      }
      follow(told);
    });
    source.addEventListener("error", streamFailed);
    return true;
  }

  // Follow the page's session: by its stream when there is one (a poll runs only while it is
  // being reconnected), else by polling.
  function keepInStep() {
    if (openStream()) {
      if (source.readyState === EventSource.OPEN) stopPolling();
    } else if (!pollTimer) {
      startPolling();
    }
  }

  function stopPolling() {
    if (pollTimer !== null) window.clearInterval(pollTimer);
    pollTimer = null;
  }

  document.addEventListener("visibilitychange", () => {
    if (document.hidden) {
      stopPolling();
      closeStream();
    } else {
      streamOff = false;
      failures = 0;
      poll();
      keepInStep();
    }
  });

  document.addEventListener("DOMContentLoaded", keepInStep);
  document.addEventListener("refapp:swapped", keyForms);
  // a swapped-in page may follow another session, or none
  document.addEventListener("refapp:swapped", () => {
    if (!document.hidden) keepInStep();
  });

  const first = document.querySelector("#main form[data-keep]");
  if (first) pristine = first.outerHTML; // game scripts dress it up only at DOMContentLoaded
  keyForms();

  // What queue.js (the rounds kept on the phone) uses of this script.
  window.refapp = Object.assign(window.refapp || {}, {
    words: words,
    notice: notice,
    clearNotice: clearNotice,
    anchorOf: anchorOf,
    place: place,
    swap: swap,
    countSwap: countSwap,
    post: post,
    newKey: newKey,
    makeKey: makeKey,
    again: again,
    answer: answer,
    expected: expected,
    recordButton: recordButton,
    pristine: () => pristine,
    setBusy: (value) => {
      busy = value;
    },
    isBusy: () => busy,
  });
})();
