// A live class's tab (ui/class_view.py): set up once per browser tab.
// The polling fragment redraws #bpe-class-poll with the class's version every 0.75 s; the step view drew
// #bpe-class-view with the version it shows. When they differ, this presses the step view's hidden "sync"
// button, so only the step view reruns (not the whole page), once per new version.
// (No "<" followed by a letter or "/" anywhere in this file: the HTML sanitizer drops such a script.)
(function () {
  var w = window;
  if (w.__bpeLiveClass) return;
  w.__bpeLiveClass = true;
  var doc = w.document;
  var asked = null, askedAt = 0;
  function check() {
    var poll = doc.getElementById("bpe-class-poll"), view = doc.getElementById("bpe-class-view");
    if (!poll || !view) return;
    var want = poll.dataset.sig;
    if (!want || want === "gone" || want === view.dataset.sig) return;
    // Once per version; again after 3 s if the step view has still not shown it (a lost press).
    if (want === asked && Date.now() - askedAt < 3000) return;
    var button = doc.querySelector(".st-key-class-sync button");
    if (!button) return;
    asked = want;
    askedAt = Date.now();
    button.click();
  }
  w.setInterval(check, 50);
})();
