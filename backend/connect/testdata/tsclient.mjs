// Drives the Connected endpoint with the official TypeScript MCP client
// (@modelcontextprotocol/sdk) and its OAuth support: discovery from the 401,
// dynamic registration, PKCE, token exchange and refresh are the SDK's.
// The Go test plays the owner and the browser, over stdin/stdout lines:
//
//   Go → node:  CALL {"tool":…,"args":…}     run one tools/call, answer RESULT <outcome>
//               RAW {"tool":…,"args":…}      the same, answer RESULT {"isError":…,"text":…}
//               RESET <scope>                 forget tokens, reconnect, ask <scope> next time
//               LIST                          run tools/list, answer RESULT OK <tools> <tools with securitySchemes>
//               INFO                          the server's initialize instructions, answer RESULT OK <JSON string>
//               CODE <code> <iss>             the browser's redirect back (after AUTHORIZE)
//   node → Go:  AUTHORIZE <url>               open this consent page and approve it
//               RESULT <outcome>              "OK <value>", "DENY <code>" or "ERR <status> <message>"
//
// Usage: node tsclient.mjs <sdk package dir> <server address>
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createInterface } from "node:readline";

const [sdkDir, serverURL] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(join(sdkDir, "dist/esm", p)).href);
const { Client } = await load("client/index.js");
const { StreamableHTTPClientTransport } = await load("client/streamableHttp.js");
const { UnauthorizedError } = await load("client/auth.js");

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const next = async () => {
  const { value, done } = await lines.next();
  if (done) process.exit(0);
  return value;
};
const say = (s) => process.stdout.write(s + "\n");

// The host decides which scopes it asks for; it starts read-only.
let wantScope = "osfoundry:read";
let pending = null; // code from the last redirect
const saved = {};
const provider = {
  get redirectUrl() {
    return "http://127.0.0.1:33420/callback";
  },
  get clientMetadata() {
    return {
      client_name: "Claude (TypeScript SDK)",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  },
  clientInformation: () => saved.client,
  saveClientInformation: (c) => { saved.client = c; },
  tokens: () => saved.tokens,
  saveTokens: (t) => { saved.tokens = t; },
  saveCodeVerifier: (v) => { saved.verifier = v; },
  codeVerifier: () => saved.verifier,
  async redirectToAuthorization(url) {
    url.searchParams.set("scope", wantScope);
    say("AUTHORIZE " + url.href);
    const [word, code, iss] = (await next()).split(" ");
    if (word !== "CODE") throw new Error("expected CODE, got " + word);
    pending = { code, iss };
  },
};

let client, transport;
async function connect() {
  transport = new StreamableHTTPClientTransport(new URL(serverURL), { authProvider: provider });
  client = new Client({ name: "ts-connect-test", version: "1" });
  await client.connect(transport);
}

function outcome(r) {
  const text = r.content?.[0]?.text ?? "";
  if (r.isError) return "DENY " + text.split(":")[0];
  try {
    const v = JSON.parse(text);
    if (Array.isArray(v.resources)) return "OK " + JSON.stringify(v.resources.map((x) => x.id));
    if (typeof v.title === "string") return "OK " + v.title;
  } catch {}
  return "OK saved";
}

// raw is a result as JSON: {"isError": …, "text": …}.
const raw = (r) => JSON.stringify({ isError: !!r.isError, text: r.content?.[0]?.text ?? "" });

async function call(tool, args, format = outcome) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return format(await client.callTool({ name: tool, arguments: args }));
    } catch (e) {
      if (e instanceof UnauthorizedError && pending) {
        const { code } = pending;
        pending = null;
        await transport.finishAuth(code);
        continue;
      }
      return "ERR " + (e.code ?? "") + " " + String(e.message).replace(/\s+/g, " ");
    }
  }
  return "ERR too many authorization rounds";
}

await connect();
for (;;) {
  const line = await next();
  const sp = line.indexOf(" ");
  const word = sp < 0 ? line : line.slice(0, sp);
  const rest = sp < 0 ? "" : line.slice(sp + 1);
  if (word === "CALL") {
    const { tool, args } = JSON.parse(rest);
    say("RESULT " + (await call(tool, args)));
  } else if (word === "RAW") {
    const { tool, args } = JSON.parse(rest);
    say("RESULT " + (await call(tool, args, raw)));
  } else if (word === "LIST") {
    try {
      const { tools } = await client.listTools();
      const schemed = tools.filter((t) => Array.isArray(t.securitySchemes) || Array.isArray(t._meta?.securitySchemes));
      say("RESULT OK " + tools.length + " " + schemed.length);
    } catch (e) {
      say("RESULT ERR " + (e.code ?? "") + " " + String(e.message).replace(/\s+/g, " "));
    }
  } else if (word === "INFO") {
    say("RESULT OK " + JSON.stringify(client.getInstructions() ?? ""));
  } else if (word === "RESET") {
    wantScope = rest;
    delete saved.tokens;
    await client.close();
    await connect();
    say("RESULT OK reset");
  } else {
    say("RESULT ERR unknown command " + word);
  }
}
