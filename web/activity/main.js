// The web table as a Discord Activity (docs/web.md, "The Activity"): the Embedded App SDK's
// handshake with the Discord client, the member's OAuth2 code exchanged by our server for an
// access token, a session for their game in the channel the Activity was launched in, then the
// table (table.js, which reads window.PE_TABLE). Bundled into bot/web/static/activity.js by
// `make bundle`; the page loads it with data-client-id, the application's id.
// The SDK's DiscordSDK class alone: its index also brings the store's price and SKU helpers, 30 KB
// more. The SDK's version is pinned (package-lock.json): a move of this file fails the build, loudly.
import { DiscordSDK } from "./node_modules/@discord/embedded-app-sdk/output/Discord.mjs";

const clientId = document.currentScript.dataset.clientId;

// One short line where the table would be: why it does not open.
function say(text) {
  const line = document.createElement("p");
  line.className = "said";
  line.textContent = text;
  (document.getElementById("table") || document.body).replaceChildren(line);
}

// POST JSON to our server; its answer, or an Error with its one-line refusal.
async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.said || `${response.status} ${response.statusText}`);
  return answer;
}

async function start() {
  const sdk = new DiscordSDK(clientId, { disableConsoleLogOverride: true });
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const { access_token } = await post("/activity/token", { code });
  await sdk.commands.authenticate({ access_token });
  const { game, session, instance } = await post("/activity/session", {
    access_token,
    channel_id: sdk.channelId,
    instance_id: sdk.instanceId,
  });
  // Inside Discord the page is served through the Activity's proxy: the WebSocket is reached the same way.
  const ws = new URL(`/ws/${game}`, location.href);
  ws.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  ws.search = new URLSearchParams({ session, instance }).toString();
  window.PE_TABLE = { game, session, instance, wsUrl: ws.href };
  const table = document.createElement("script");
  table.src = "/static/table.js";
  document.body.appendChild(table);
}

start().catch((error) => say(error.message || String(error)));
