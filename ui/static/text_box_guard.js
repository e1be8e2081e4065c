// The text box guard, set up once per browser tab (ui/uploads.py fills in __CAP__).
//
// Two things a browser can send that make the server drop the connection, after which the session
// ignores every later click (Streamlit limitations): a lone surrogate typed or pasted into a text box
// (invalid UTF-8), and a text box value larger than server.maxWidgetStateSize. This script runs before
// Streamlit's own handler reads a text box: it replaces lone surrogates with U+FFFD and cuts a value
// longer than the cap there.
//
// The stepper's keys, step swap and autoplay are static/stepper.js.
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
})();
