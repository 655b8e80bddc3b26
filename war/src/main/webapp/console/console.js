// Operator console: fetches the JSON views under /console/api/ and renders them with textContent
// only (never as HTML), so names and reasons from clients cannot inject markup.
"use strict";

let csrf = null;
const REFRESH_MS = 2000;

function $(id) { return document.getElementById(id); }

async function api(path, body) {
  const init = body === undefined ? { credentials: "same-origin" }
    : { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf || "" },
        body: JSON.stringify(body) };
  const response = await fetch("api/" + path, init);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.error || ("HTTP " + response.status));
    error.status = response.status;
    throw error;
  }
  return data;
}

function rows(tableId, items, cells) {
  const body = $(tableId).tBodies[0];
  const fresh = document.createElement("tbody");
  for (const item of items) {
    const tr = document.createElement("tr");
    const values = cells(item);
    tr.dataset.key = String(values[0]);
    for (const value of values) {
      const td = document.createElement("td");
      td.textContent = value === undefined || value === null ? "" : String(value);
      tr.appendChild(td);
    }
    fresh.appendChild(tr);
  }
  body.replaceWith(fresh);
}

function pairs(tableId, object) {
  rows(tableId, Object.entries(object), ([k, v]) => [k, v]);
}

function when(seconds) {
  return seconds ? new Date(seconds * 1000).toISOString().replace(".000", "") : "";
}

function status(text, isError) {
  $("status").textContent = text;
  $("status").className = isError ? "error" : "";
}

async function refresh() {
  try {
    const [counters, roster, claims, board, mailbox, inbox, webhooks, journal, plans, delivery, forwards] = await Promise.all(
      ["counters", "roster", "claims", "board", "mailbox", "inbox", "webhooks", "journal", "plans", "delivery", "forwards"]
        .map(v => api(v)));
    pairs("counters", counters);
    rows("roster", roster.connections, c => [c.name || "(unregistered)", c.connection_id, c.remote_host, c.roles.join(", "), c.protocol_version]);
    rows("claims", claims.claims, c => [c.task_id, c.owner, c.status, c.epoch, when(c.lease_expires_at)]);
    rows("board", board.tasks || [], t => [t.task_id, t.title, t.status, t.version]);
    pairs("mailbox", mailbox);
    rows("inbox", inbox.agents, a => [a.agent, a.queued, a.taken]);
    rows("webhooks", webhooks.deliveries, d => [d.message_seq, d.message_id, d.agent_id, d.attempts_failed,
      new Date(d.due_at_ms).toISOString(), d.in_flight ? "yes" : "no"]);
    pairs("journal", journal);
    rows("plans", plans.orgs, o => [o.org, o.plan, o.messages_today, o.limits.messages_per_day, o.agents]);
    const deliveryCounts = { open_total: delivery.open_total, offers_pending: delivery.offers_pending,
      notifications_pending: delivery.notifications_pending, notifications_dropped: delivery.notifications_dropped };
    for (const [stage, n] of Object.entries(delivery.open_by_stage)) { deliveryCounts["open_" + stage] = n; }
    pairs("delivery-counts", deliveryCounts);
    rows("delivery", delivery.requests, r => [r.operation_key, r.request_id, r.sender, r.target, r.stage,
      r.selected_mode, r.cancel_requested ? "yes" : "no", when(r.deadline)]);
    rows("delivery-audiences", delivery.audiences, a => [a.audience, a.pending, when(a.oldest_at)]);
    $("forwards-note").textContent = forwards.configured
      ? forwards.pending + " pending; oldest " + forwards.oldest_pending_seconds.toFixed(1) + " s"
      : "No message peers configured (hub.message-peers): nothing is forwarded.";
    rows("forward-peers", forwards.peers, p => [p.peer, p.pending, p.oldest_pending_seconds.toFixed(1)]);
    rows("forwards", forwards.forwards, f => [f.forward_id, f.peer, f.sender, f.target, f.state, f.attempts,
      when(f.next_attempt_at), when(f.expires_at)]);
  } catch (e) {
    if (e.status === 401) {
      showLogin();
      return;
    }
    status("refresh failed: " + e.message, true);
  }
}

let timer = null;

function showLogin() {
  csrf = null;
  if (timer) { clearInterval(timer); timer = null; }
  $("app").hidden = true;
  $("logout").hidden = true;
  $("whoami").textContent = "";
  $("login-section").hidden = false;
}

function showApp(session) {
  csrf = session.csrf;
  $("login-section").hidden = true;
  $("app").hidden = false;
  $("logout").hidden = false;
  $("whoami").textContent = session.principal;
  refresh();
  if (!timer) { timer = setInterval(refresh, REFRESH_MS); }
}

async function act(path, body, done) {
  try {
    const result = await api(path, body);
    status(result.message || "done", false);
    if (done) { done(); }
  } catch (e) {
    status(e.message, true);
  }
  refresh();
}

document.addEventListener("DOMContentLoaded", () => {
  $("login-form").addEventListener("submit", async event => {
    event.preventDefault();
    try {
      const session = await api("login", { token: $("token").value });
      $("token").value = "";
      $("login-error").textContent = "";
      showApp(session);
    } catch (e) {
      $("login-error").textContent = e.message;
    }
  });
  $("logout").addEventListener("click", () => act("logout", {}, showLogin));
  $("release-form").addEventListener("submit", event => {
    event.preventDefault();
    act("claims/release", { task_id: $("release-task").value, reason: $("release-reason").value },
      () => { $("release-task").value = ""; $("release-reason").value = ""; });
  });
  $("disconnect-form").addEventListener("submit", event => {
    event.preventDefault();
    act("roster/disconnect", { connection: $("disconnect-connection").value, reason: $("disconnect-reason").value });
  });
  $("webhook-retry").addEventListener("click", () => act("webhooks/retry", { message_seq: Number($("webhook-seq").value) }));
  $("webhook-drop").addEventListener("click", () =>
    act("webhooks/drop", { message_seq: Number($("webhook-seq").value), reason: $("webhook-reason").value }));
  $("backup-button").addEventListener("click", () => act("journal/backup", {}));
  api("session").then(showApp).catch(showLogin);
});
