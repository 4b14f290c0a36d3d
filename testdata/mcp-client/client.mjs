// client.mjs drives sandtrap's MCP server with the official TypeScript SDK,
// over Streamable HTTP and over stdio, and prints what it got as JSON for
// the Go test (web/mcp_node_test.go) to check.
//
// usage: node client.mjs PLAN
// where PLAN is JSON: {"http": {"url", "token"}, "stdio": {"command", "args"},
// "calls": [{"name", "arguments"}]}. Each call is made over both transports.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const plan = JSON.parse(process.argv[2]);

async function drive(transport) {
  const client = new Client({ name: "sandtrap-ts-test", version: "1.0.0" });
  await client.connect(transport);
  const tools = (await client.listTools()).tools.map((t) => t.name).sort();
  const calls = [];
  for (const { name, arguments: args } of plan.calls) {
    // callTool checks structuredContent against the tool's outputSchema.
    const res = await client.callTool({ name, arguments: args });
    const text = res.content.filter((c) => c.type === "text").map((c) => c.text).join("");
    let textIsAnswer = false;
    try {
      textIsAnswer = JSON.stringify(JSON.parse(text)) === JSON.stringify(res.structuredContent);
    } catch {}
    calls.push({ name, isError: res.isError === true, structured: res.structuredContent ?? null, textIsAnswer, text });
  }
  await client.close();
  return { server: client.getServerVersion(), tools, calls };
}

const out = {
  http: await drive(new StreamableHTTPClientTransport(new URL(plan.http.url), {
    requestInit: { headers: { Authorization: `Bearer ${plan.http.token}` } },
  })),
  stdio: await drive(new StdioClientTransport({ command: plan.stdio.command, args: plan.stdio.args, stderr: "ignore" })),
};
process.stdout.write(JSON.stringify(out));
