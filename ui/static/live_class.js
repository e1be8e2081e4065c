// A live class's tab (ui/class_view.py): set up once per browser tab.
// The step view drew #bpe-class-view with the signature of the class it shows ("7", or "7.31" on the teacher's
// screen). #bpe-class-poll says where the class's current signature comes from:
//  * data-url: the poll endpoint (bpe_server/class_poll.py). This script asks it every POLL_MS (one at a time, not
//    while the tab is hidden: a phone in a pocket costs nothing), a plain HTTP GET that runs no Streamlit script;
//  * data-sig: the fallback polling fragment redraws it (a server run without the endpoint).
// When the class is newer than the step view, this presses the step view's hidden "sync" button, so only the
// step view reruns (not the whole page), once per new signature. A following student's screen first shows the
// teacher's new step from the steps sent ahead, if it has it (the poll's "step", unless "asking"): a step back only,
// as a student's page is sent no step past the teacher's (ui/step_ahead.py).
// A screen whose presses of "sync" go unanswered (after a replica restart the tab's websocket reconnects to a new
// session, which knows nothing of the step view's fragment and ignores them) presses the page's hidden "resync"
// button instead, once per signature: a rerun of the whole page, which that session does run.
// Last resort: a screen whose step view has not been redrawn for STALL_MS while the class is newer (its presses of
// "sync" went unanswered), or whose page Streamlit failed to update ("Bad delta path"), reloads, at most once a
// minute; the class code in the address and the browser's cookies (the student id, the teacher key) bring it back
// to the class as it is, with its picks.
// (No "<" followed by a letter or "/" anywhere in this file: the HTML sanitizer drops such a script.)
(function () {
  var w = window;
  if (w.__bpeLiveClass) return;
  w.__bpeLiveClass = true;
  var doc = w.document;
  var POLL_MS = 500, FETCH_MS = 4000, STALL_MS = 12000, RELOAD_GAP_MS = 60000;
  var asked = null, askedAt = 0, presses = 0, resynced = null;
  var drawnSig = null, behind = 0;  // the view's signature, and since when it has been older than the class's
  var fetched = null, fetchedFrom = null, fetchedBody = null, busy = false, lastFetch = 0;

  // Whether signature a is newer than b. Both count up ("7" then "8"; "7.31" then "7.32"), so a poll answered
  // just before the teacher's own press does not send the teacher's screen back; "unreachable" differs from
  // every number and always counts as news (the step view reruns and says so).
  function newer(a, b) {
    var x = String(a).split("."), y = String(b).split(".");
    for (var i = 0, len = Math.max(x.length, y.length); i < len; i++) {
      var m = Number(x[i] || 0), n = Number(y[i] || 0);
      if (isNaN(m) || isNaN(n)) return a !== b;
      if (m !== n) return m > n;
    }
    return false;
  }

  function ask(url) {
    busy = true;
    lastFetch = Date.now();
    // A poll that gets no answer is given up after FETCH_MS: a fetch has no time-out of its own, and one that
    // never ends (a connection the server or a proxy dropped without a word) would stop this tab following.
    var abort = w.AbortController ? new w.AbortController() : null;
    var timer = abort ? w.setTimeout(function () { abort.abort(); }, FETCH_MS) : null;
    // No cookies: the teacher's key lives in one, and a poll needs nothing but the class code in its address.
    w.fetch(url, { cache: "no-store", credentials: "omit", signal: abort ? abort.signal : undefined })
      .then(function (r) { return r.json(); })
      .then(function (body) { fetched = body && body.sig; fetchedBody = body; fetchedFrom = url; })
      .catch(function () {})  // a restart, a dropped connection, a time-out: ask again at the next turn
      .then(function () { if (timer) w.clearTimeout(timer); busy = false; check(); });
  }

  function check() {
    if (broken && reload("the page could not be updated (" + broken.slice(0, 120) + ")")) return;
    var poll = doc.getElementById("bpe-class-poll"), view = doc.getElementById("bpe-class-view");
    if (!poll) return;
    var url = poll.dataset.url, want = poll.dataset.sig;
    if (url) {
      if (!busy && !doc.hidden && Date.now() - lastFetch >= POLL_MS) ask(url);
      want = url === fetchedFrom ? fetched : null;  // an answer about another class does not count
    }
    if (!view || !want || want === "gone") { behind = 0; return; }
    if (view.dataset.sig !== drawnSig) { drawnSig = view.dataset.sig; behind = 0; presses = 0; }
    if (!newer(want, drawnSig)) { behind = 0; return; }
    if (!behind || doc.hidden) behind = Date.now();  // a phone in a pocket is not a stalled screen
    if (stalled(want)) return;
    // Once per signature; again after 3 s if the step view has still not shown it (a lost press).
    if (want === asked && Date.now() - askedAt < 3000) return;
    var whole = presses >= 2 && want !== resynced && doc.querySelector(".st-key-class-resync button");
    if (whole) resynced = want;
    var button = whole || doc.querySelector(".st-key-class-sync button");
    if (!button) return;
    asked = want;
    askedAt = Date.now();
    presses++;
    // A following student's screen shows the teacher's new step at once when it was sent ahead (the step
    // label, the merge and the pair table: static/stepper.js); never while a question is open or
    // closed and not revealed (the pair table would give the merge away), nor once the class has ended.
    var b = url ? fetchedBody : null;
    if (b && view.dataset.follow === "1" && !b.asking && !b.ended && typeof b.step === "number" && w.__bpeShowAheadStep) {
      w.__bpeShowAheadStep(b.step);
    }
    button.click();
  }
  // True when this screen gives up waiting and reloads: behind the class for STALL_MS, visible, with at least two
  // presses of "sync" unanswered (or no sync button to press), and no script run going (or one going for twice as
  // long: a run that never says it ended).
  function stalled(want) {
    var late = Date.now() - behind;
    if (late < STALL_MS || (presses < 2 && doc.querySelector(".st-key-class-sync button"))) return false;
    var app = doc.querySelector('[data-testid="stApp"]');
    var state = app ? app.getAttribute("data-test-script-state") : "";
    if (state === "running" && late < 2 * STALL_MS) return false;
    return reload("class at " + want + ", this screen still at " + drawnSig + " after " + Math.round(late / 1000) +
      " s and " + presses + " presses of sync (script " + state + ")");
  }
  // Reloads, at most once a minute (true when it does), and says why in the console, for whoever looks into why a
  // screen stopped following.
  function reload(why) {
    var store = null, last = 0;
    try { store = w.sessionStorage; last = Number(store.getItem("bpe-class-reload") || 0); } catch (err) { store = null; }
    if (Date.now() - last < RELOAD_GAP_MS) return false;
    if (store) store.setItem("bpe-class-reload", String(Date.now()));
    w.console.warn("BPE Explorer: " + why + "; reloading");
    w.location.reload();
    return true;
  }
  // A screen whose page Streamlit can no longer update: a rerun's element reached the page at a place its tree
  // does not have ("Bad delta path index 11 (should be between [0, 9])", Streamlit 1.67), and the page went blank
  // and followed no more. The cause, a cached element of an interrupted run sent without the elements before it,
  // is mended on the server (ui/streamlit_patches.py, fragment references); should the page still fail so, it reloads at once.
  var broken = null;
  function onFault(text) {
    if (/delta path/i.test(text)) { broken = text; check(); }
  }
  w.addEventListener("error", function (e) { onFault(String((e && e.message) || "")); });
  w.addEventListener("unhandledrejection", function (e) { onFault(String((e && e.reason && e.reason.message) || (e && e.reason) || "")); });
  w.setInterval(check, 50);
  doc.addEventListener("visibilitychange", check);
})();
