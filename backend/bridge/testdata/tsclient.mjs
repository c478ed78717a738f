// Drives a bridge with the official TypeScript MCP client
// (@modelcontextprotocol/sdk): handshake, tools/list, one allowed call and
// one refused call. Prints one JSON line with what it saw.
//
// Usage: node tsclient.mjs <sdk package dir> <bridge url> <token>
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [sdkDir, url, token] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(join(sdkDir, "dist/esm", p)).href);
const { Client } = await load("client/index.js");
const { StreamableHTTPClientTransport } = await load("client/streamableHttp.js");

const client = new Client({ name: "ts-test-client", version: "1" });
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
await client.connect(transport);

const out = { protocolVersion: transport.protocolVersion ?? null };
out.tools = (await client.listTools()).tools.map((t) => t.name).sort();
const r = await client.callTool({
  name: "memory_search",
  arguments: { query: "release", workspace: "ws-other" },
});
out.memory = { isError: r.isError ?? false, text: r.content?.[0]?.text ?? "" };
try {
  await client.callTool({ name: "secret_tool", arguments: {} });
  out.refused = null;
} catch (e) {
  out.refused = { code: e.code ?? null, message: String(e.message) };
}
await client.close();
process.stdout.write(JSON.stringify(out) + "\n");
