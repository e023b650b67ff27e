// PIN pad of the referee login: fills the field, submits with fetch and shows refusals in words.
const form = document.getElementById("login-form");
const pin = document.getElementById("pin");
const dots = document.getElementById("pin-dots");
const error = document.getElementById("error");

function showDots() {
  dots.textContent = "●".repeat(pin.value.length) || "\u00a0";
}
function showError(text) {
  error.textContent = text;
  error.hidden = !text;
}

document.querySelectorAll(".pad .key").forEach((key) => key.addEventListener("click", () => {
  const k = key.dataset.key;
  if (k === "clear") pin.value = "";
  else if (k === "back") pin.value = pin.value.slice(0, -1);
  else if (pin.value.length < 32) pin.value += k;
  showDots();
  pin.focus({ preventScroll: true });
}));
pin.addEventListener("input", showDots);
document.addEventListener("keydown", (ev) => {
  if (ev.target === pin) return;
  if (/^[0-9]$/.test(ev.key)) { pin.value += ev.key; showDots(); }
  else if (ev.key === "Backspace") { pin.value = pin.value.slice(0, -1); showDots(); }
  else if (ev.key === "Enter") form.requestSubmit();
});

form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  if (!pin.value) { showError("PIN을 입력하세요"); return; }
  showError("");
  const body = new URLSearchParams(new FormData(form));
  let r;
  try {
    r = await fetch(form.action, { method: "POST", body, headers: { Accept: "application/json" }, redirect: "follow" });
  } catch (_) {
    showError("서버에 연결할 수 없습니다. 네트워크를 확인하세요.");
    return;
  }
  if (r.ok && !new URL(r.url).pathname.endsWith("/login")) {
    location.assign(new URL(r.url).pathname.startsWith("/referee") ? r.url : "/referee");
    return;
  }
  pin.value = "";
  showDots();
  if (r.status === 429) {
    const retry = r.headers.get("Retry-After");
    showError(`틀린 PIN이 너무 많습니다. ${retry ? `${retry}초 뒤에` : "잠시 뒤에"} 다시 하세요.`);
  } else if (r.status === 401 || r.status === 403 || r.ok || r.status === 400) {
    showError("PIN이 틀렸습니다. 다시 누르세요.");
  } else {
    showError(`로그인 실패 (HTTP ${r.status})`);
  }
});
showDots();
