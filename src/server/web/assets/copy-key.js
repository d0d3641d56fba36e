// The "Copy" button beside a newly created API key. A file, since the pages allow no inline script.
"use strict";
document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-copy-target]");
  if (!button) return;
  var input = document.getElementById(button.getAttribute("data-copy-target"));
  var status = document.getElementById(button.getAttribute("data-copy-status"));
  function done(ok) {
    if (status) status.textContent = ok ? "Copied to the clipboard." : "Select the key and copy it (Ctrl+C or Cmd+C).";
  }
  input.select();
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(input.value).then(
      function () {
        done(true);
      },
      function () {
        done(document.execCommand("copy"));
      },
    );
  } else {
    done(document.execCommand("copy"));
  }
});
