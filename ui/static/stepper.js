// The stepper's script (ui/stepper.py), set up once per browser tab.
//
// 1. The arrow keys step through merges (the stepper's Prev / Next buttons have them as shortcuts), but
// Streamlit ignores its shortcuts while the focus is in an input: after a pick in a selectbox (a preset,
// a setting) or a click on a radio, a toggle or a number box, the focus stayed there, and ← / → changed
// the widget instead of the step. So once a choice is made, the focus goes back to the page. Text boxes
// keep it (their user may go on typing).
//
// 2. The first ← or → after the page is drawn: the script run ends before the browser has drawn the page,
// and Streamlit loads the code of each kind of element on first use; the step label (st.html, like this
// script) can be on screen before the Prev / Next buttons, and a key pressed then found no button and no
// shortcut: it was lost. Such a key is kept here and given to its button as soon as the button is there.
//
// 3. Stepping in the browser (ui/step_ahead.py): each run of the step view leaves the label and the panels
// of the steps around it in the hidden #bpe-ahead (a JSON block: step -> element id -> outer HTML). A
// press of the Right or Left arrow key, or a click on First / Prev / Next / Last, swaps them in at once; the
// press still goes to Streamlit (a key as a click on its button), whose rerun brings the other panels (and
// the same HTML for these). A press made while the server has not yet drawn the step before waits for it
// (see "Presses wait").
//
// A live class's screen uses the same swap to show the teacher's new step (w.__bpeShowAheadStep) when it has it: a
// student's page is sent no step past the teacher's (data-n is the last step a press can reach), so a step back.
//
// 4. Autoplay (ui/stepper.py): while it is on, the step label carries the seconds per step
// (data-autoplay), and this script presses Next at that beat. The beat starts again after any other
// move (a key, a click), and waits while Next is disabled (a run still training) and while the server has
// yet to draw the step before.
// (No "<" followed by a letter or "/" anywhere in this file: the HTML sanitizer drops such a script.)
(function () {
  var w = window;
  if (w.__bpeStepper) return;
  w.__bpeStepper = true;
  var doc = w.document;
  // Inputs that take a choice (not text): their focus is given back to the page once the choice is made.
  var CHOICES = { radio: 1, checkbox: 1, number: 1, range: 1 };
  function release() {
    // Later than the widget's own handlers (which read the value and may move the focus).
    w.setTimeout(function () {
      var el = doc.activeElement;
      if (el && el.tagName === "INPUT") el.blur();
    }, 30);
  }
  var lastPointer = 0, pickedAt = 0;
  doc.addEventListener("pointerdown", function () { lastPointer = Date.now(); }, true);
  function picked() { pickedAt = Date.now(); release(); }
  doc.addEventListener("focusin", function (e) {
    var el = e.target;
    if (!el || el.tagName !== "INPUT") return;
    // A radio, a checkbox or a toggle clicked with the mouse gets the focus after the click (one reached with
    // Tab keeps it: keyboard users move on with Tab); a selectbox takes the focus back after an option is picked.
    var clicked = (el.type === "radio" || el.type === "checkbox") && Date.now() - lastPointer < 800;
    var afterPick = el.getAttribute("role") === "combobox" && Date.now() - pickedAt < 1000;
    if (clicked || afterPick) release();
  }, true);
  doc.addEventListener("change", function (e) {
    var el = e.target;
    if (el && el.tagName === "INPUT" && CHOICES[el.type] === 1) release();
  }, true);
  // A selectbox's option is picked with the mouse, or with Enter in its open list; Enter also commits a
  // number or a short text box.
  function onOption(e) {
    var t = e.target;
    if (t && t.closest && t.closest('[role="option"]')) picked();
  }
  doc.addEventListener("pointerup", onOption, true);
  doc.addEventListener("click", onOption, true);
  doc.addEventListener("keydown", function (e) {
    var el = e.target;
    if (e.key === "Enter" && el && el.tagName === "INPUT") picked();
  }, true);

  var STEP = { ArrowRight: "next", ArrowLeft: "prev" };
  function stepButton(which) {
    // The stepper's buttons sit in containers with the class st-key-KEY-next / st-key-KEY-prev. A page may draw
    // two step controls (the Encode page: its tokenizer's step k above its replay), and only one has the arrow
    // keys (ui/stepper.py, arrows=True): its Prev / Next carry them as shortcuts, which Streamlit marks in the
    // button (data-has-shortcut="true"). A control without them is skipped, so a key waits for the buttons of
    // the one that owns the arrows (part 2) and autoplay presses that one's Next.
    var found = doc.querySelectorAll('[class*="st-key-"][class*="-' + which + '"] button');
    for (var i = 0; i < found.length; i++) {
      var box = found[i].closest('[class*="st-key-"]');
      if (!box || !/ st-key-\S+-(next|prev)( |$)/.test(" " + box.className)) continue;
      if (found[i].querySelector('[data-has-shortcut="true"]')) return found[i];
    }
    return null;
  }
  var pending = null;
  doc.addEventListener("keydown", function (e) {
    var which = STEP[e.key];
    if (!which || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
    var t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    if (!doc.querySelector(".bpe-step-label")) return; // no stepper on this page
    var button = stepButton(which);
    if (button) { // Streamlit's shortcut presses it (not when disabled), or part 3 does
      if (!button.disabled || queue.length || busy()) pressed(which, e); // a step shown at once counts
      return;
    }
    if (pending) return;
    pending = { which: which, until: Date.now() + 10000 };
    var timer = w.setInterval(function () {
      var button = stepButton(pending.which);
      if (button || Date.now() > pending.until) {
        w.clearInterval(timer);
        // A moment for Streamlit to finish setting up the button it has just drawn.
        if (button && !button.disabled) w.setTimeout(function () { button.click(); }, 50);
        pending = null;
      }
    }, 50);
  }, true);
  var parsed = { el: null, steps: {} };
  function aheadSteps(box) {
    if (parsed.el !== box) { // parsed once per run of the step view
      parsed.el = box;
      var block = box.querySelector("script");
      try { parsed.steps = JSON.parse(block ? block.textContent : "{}"); } catch (err) { parsed.steps = {}; }
    }
    return parsed.steps;
  }
  function buttonOf(box, which) { // First / Prev / Next / Last of the stepper #bpe-ahead belongs to
    return doc.querySelector(".st-key-" + box.dataset.key + "-" + which + " button");
  }
  function swapIn(box, pieces, step) {
    (box.dataset.ids || "").split(" ").forEach(function (id) {
      var el = doc.getElementById(id);
      if (!el) return;
      if (pieces[id]) el.outerHTML = pieces[id];
      else el.hidden = true; // e.g. no changed words at step 0
    });
    // The buttons as the server will draw them at that step (Prev works at once after Next from step 0).
    var n = parseInt(box.dataset.n, 10), off = { first: step <= 0, prev: step <= 0, next: step >= n, last: step >= n };
    Object.keys(off).forEach(function (which) {
      var button = buttonOf(box, which);
      if (button) button.disabled = off[which];
    });
  }
  // Should the server not move as the page did, its own step comes back: the server's #bpe-ahead says
  // which step it drew. Looked at while no press waits for the server and no run is going, so a step shown
  // ahead is never taken back while its run is still on its way (on a busy machine that can take seconds).
  var shownAhead = false; // this script has shown a step the server had not drawn (only then is there anything to heal)
  function heal() {
    if (!shownAhead) return;
    var app = doc.querySelector('[data-testid="stApp"]');
    var box = doc.getElementById("bpe-ahead"), label = doc.getElementById("bpe-step-label");
    if (!box || !label || queue.length || busy()) return;
    if (label.dataset.step === box.dataset.step) { shownAhead = false; return; }
    if (app && app.getAttribute("data-test-script-state") !== "notRunning") return;
    var pieces = aheadSteps(box)[box.dataset.step];
    if (pieces) swapIn(box, pieces, parseInt(box.dataset.step, 10));
    shownAhead = false;
  }
  w.setInterval(heal, 250);
  // The press the page is showing ahead of the server: the step the server had drawn when it was made
  // (#bpe-ahead's data-step). It is answered once the server has drawn another step; a long time-out
  // only for a server that never answers (gone).
  var waiting = null;
  function showStep(which) {
    var box = doc.getElementById("bpe-ahead"), label = doc.getElementById("bpe-step-label");
    if (!box || !label) return;
    var now = parseInt(label.dataset.step, 10), n = parseInt(box.dataset.n, 10);
    var to = { first: 0, prev: now - 1, next: now + 1, last: n }[which];
    if (isNaN(now) || isNaN(n) || to === undefined || to < 0 || to > n || to === now) return;
    waiting = { from: box.dataset.step, to: String(to), until: Date.now() + 20000 };
    var pieces = aheadSteps(box)[String(to)];
    if (pieces) { // beyond the steps sent ahead: the server's rerun draws it
      swapIn(box, pieces, to);
      shownAhead = true;
    }
  }
  // A live class's screen following the teacher (static/live_class.js) shows the teacher's new step the same
  // way, as soon as its poll hears of it, if that step was sent ahead; the sync rerun then brings the rest.
  // True when it is shown (or was already).
  w.__bpeShowAheadStep = function (step) {
    var box = doc.getElementById("bpe-ahead"), label = doc.getElementById("bpe-step-label");
    if (!box || !label || queue.length || busy()) return false;
    if (label.dataset.step === String(step)) return true;
    var pieces = aheadSteps(box)[String(step)];
    if (!pieces) return false;
    waiting = { from: box.dataset.step, to: String(step), until: Date.now() + 20000 };
    swapIn(box, pieces, step);
    shownAhead = true;
    return true;
  };
  // Presses wait their turn. Two clicks of one button that reach Streamlit before its server has started
  // on the earlier one count as one click: a press made before the server has drawn the step of the one
  // before would be lost (after being shown). Such a press is held here and given to Streamlit once the
  // server has drawn a step since (its #bpe-ahead says so), so every press is one step, however fast they
  // come.
  function busy() {
    if (!waiting) return false;
    var box = doc.getElementById("bpe-ahead");
    if (!box || box.dataset.step !== waiting.from || Date.now() > waiting.until) waiting = null;
    return waiting !== null;
  }
  // While a press waits for the server, a run the server had begun before it (another widget's, a timer's)
  // may draw the step before once more: the step shown ahead is put back at once, so the label never goes
  // back and forth (one observer, called before the page paints).
  new w.MutationObserver(function () {
    if (!waiting) return;
    var box = doc.getElementById("bpe-ahead"), label = doc.getElementById("bpe-step-label");
    if (!box || !label || label.dataset.step === waiting.to || label.dataset.step !== waiting.from || !busy()) return;
    var pieces = aheadSteps(box)[waiting.to];
    if (pieces) swapIn(box, pieces, parseInt(waiting.to, 10));
  }).observe(doc.body, { subtree: true, childList: true });
  // A press Streamlit never heard (something stopped the click on its way up to React, which listens at
  // the page's root) gets no answer: it is undone at once. A click that reaches the window went past React.
  var heard = false;
  w.addEventListener("click", function () { heard = true; });
  function unlessHeard() {
    heard = false;
    w.setTimeout(function () { // after the click's dispatch, which ran to its end in this task
      if (!heard) { waiting = null; heal(); }
    }, 0);
  }
  var queue = [], replaying = false, pumping = false;
  function pressed(which, e) {
    if (!doc.getElementById("bpe-ahead")) return; // a page without steps sent ahead: Streamlit alone
    if (!replaying && (queue.length || busy())) {
      e.preventDefault();
      e.stopImmediatePropagation(); // neither Streamlit's shortcut nor the button hears of it yet
      queue.push(which);
      pump();
      return;
    }
    if (e.type === "keydown") { // the key becomes a click on its button, as a held press does
      e.preventDefault();
      e.stopImmediatePropagation();
      give(which);
      return;
    }
    showStep(which);
    unlessHeard();
  }
  function give(which) {
    var box = doc.getElementById("bpe-ahead");
    var button = box && buttonOf(box, which);
    if (button && !button.disabled) {
      replaying = true;
      try { button.click(); } finally { replaying = false; }
    }
  }
  function pump() {
    if (pumping) return;
    pumping = true;
    (function next() {
      if (!queue.length) { pumping = false; return; }
      if (!busy()) give(queue.shift());
      w.setTimeout(next, 15);
    })();
  }
  doc.addEventListener("click", function (e) {
    var button = e.target && e.target.closest ? e.target.closest("button") : null;
    if (!button || button.disabled) return;
    var box = button.closest('[class*="st-key-"]');
    var m = box && / st-key-(\S+)-(first|prev|next|last)( |$)/.exec(" " + box.className);
    var ahead = doc.getElementById("bpe-ahead");
    if (m && ahead && ahead.dataset.key === m[1]) pressed(m[2], e);
  }, true);
  var beat = { on: false, at: 0, step: null, expect: null };
  function autoplay() {
    var label = doc.getElementById("bpe-step-label"), now = w.performance.now(), wait = 100;
    var every = label && label.dataset.autoplay ? 1000 * parseFloat(label.dataset.autoplay) : 0;
    if (!(every > 0)) {
      beat.on = false;
    } else {
      var step = label.dataset.step;
      if (!beat.on || (step !== beat.step && step !== beat.expect)) { // switched on, or moved by hand
        beat.on = true;
        beat.at = now;
      }
      beat.step = step;
      var due = beat.at + every;
      if (now >= due - 2) {
        var button = stepButton("next");
        // Not while the server has yet to draw the step before: a press held until then could still come
        // after autoplay was switched off.
        if (button && !button.disabled && doc.visibilityState === "visible" && !queue.length && !busy()) {
          beat.expect = String(parseInt(step, 10) + 1);
          beat.at = now - due < every / 2 ? due : now; // on the beat; after a stall, from now
          button.click();
          due = beat.at + every;
        }
      }
      var left = due - w.performance.now();
      wait = left > 2 ? Math.min(100, left) : 100; // not pressed (Next disabled): look again soon
    }
    w.setTimeout(autoplay, wait);
  }
  autoplay();
})();
