// The app's one script, set up once per browser tab (ui/uploads.py fills in __CAP__).
//
// 1. Two things a browser can send that make the server drop the connection, after which the session
// ignores every later click (Streamlit limitations): a lone surrogate typed or pasted into a text box
// (invalid UTF-8), and a text box value larger than server.maxWidgetStateSize. This script runs before
// Streamlit's own handler reads a text box: it replaces lone surrogates with U+FFFD and cuts a value
// longer than the cap there.
//
// 2. The arrow keys step through merges (the stepper's Prev / Next buttons have them as shortcuts), but
// Streamlit ignores its shortcuts while the focus is in an input: after a pick in a selectbox (a preset,
// a setting) or a click on a radio, a toggle or a number box, the focus stayed there, and ← / → changed
// the widget instead of the step. So once a choice is made, the focus goes back to the page. Text boxes
// keep it (their user may go on typing).
//
// 3. The first ← or → after the page is drawn: the script run ends before the browser has drawn the page,
// and Streamlit loads the code of each kind of element on first use; the step label (st.html, like this
// script) can be on screen before the Prev / Next buttons, and a key pressed then found no button and no
// shortcut: it was lost. Such a key is kept here and given to its button as soon as the button is there.
// (No "<" followed by a letter or "/" anywhere in this file: the HTML sanitizer drops such a script.)
(function () {
  var w = window;
  if (w.__bpeTextBoxGuard) return;
  w.__bpeTextBoxGuard = true;
  var doc = w.document;
  var cap = __CAP__;
  doc.addEventListener("input", function (e) {
    var el = e.target;
    if (!el || (el.tagName !== "TEXTAREA" && el.tagName !== "INPUT")) return;
    var v = el.value;
    if (typeof v !== "string") return;
    var fixed = v.length > cap ? v.slice(0, cap) : v;
    if (typeof fixed.isWellFormed === "function" && !fixed.isWellFormed()) fixed = fixed.toWellFormed();
    if (fixed === v) return;
    var proto = el.tagName === "TEXTAREA" ? w.HTMLTextAreaElement.prototype : w.HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, "value").set.call(el, fixed);
  }, true);

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
    // The stepper's buttons sit in containers with the class st-key-KEY-next / st-key-KEY-prev.
    var found = doc.querySelectorAll('[class*="st-key-"][class*="-' + which + '"] button');
    for (var i = 0; i < found.length; i++) {
      var box = found[i].closest('[class*="st-key-"]');
      if (box && / st-key-\S+-(next|prev)( |$)/.test(" " + box.className)) return found[i];
    }
    return null;
  }
  var pending = null;
  doc.addEventListener("keydown", function (e) {
    var which = STEP[e.key];
    if (!which || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
    var t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    if (!doc.getElementById("bpe-step-label") || stepButton(which)) return; // no stepper, or Streamlit's shortcut
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
})();
