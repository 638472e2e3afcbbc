// Pairing: the code goes to POST /pair, which answers with the cookie that
// lets this browser read and act. A link ending in #CODE (the QR code's) pairs at once.
"use strict";

const $ = (id) => document.getElementById(id);

function paired(name) {
  $("pair-form").hidden = true;
  $("pair-intro").hidden = true;
  $("pair-message").textContent = `This browser is paired as ${name}.`;
  $("pair-page").hidden = false;
}

async function pair(code) {
  const body = { code };
  const name = $("pair-name").value.trim();
  if (name) body.name = name;
  $("pair-message").textContent = "pairing…";
  const response = await fetch("/pair", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  }).catch(() => null);
  const answer = response ? await response.json().catch(() => ({})) : {};
  if (response && response.ok) {
    paired(answer.name);
    setTimeout(() => { location.href = "/"; }, 1000);
  } else {
    $("pair-message").textContent = response ? answer.error || `${response.status}` : "the rig did not answer";
    $("pair-code").select();
  }
}

$("pair-form").addEventListener("submit", (event) => {
  event.preventDefault();
  pair($("pair-code").value.trim());
});

fetch("/pair/me").then((response) => response.json()).then((me) => {
  if (me.id) { paired(me.name); return; }
  if (!me.pairing) $("pair-message").textContent = "pairing is off on this rig: use its token";
  const code = location.hash.slice(1);
  if (/^[0-9]{6}$/.test(code)) {
    history.replaceState(null, "", "/pair");
    $("pair-code").value = code;
    pair(code);
  } else {
    $("pair-code").focus();
  }
}).catch(() => { $("pair-message").textContent = "the rig did not answer"; });
