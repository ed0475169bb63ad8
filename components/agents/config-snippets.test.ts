import { describe, expect, it } from "vitest";
import { claudeCodeSnippet, claudeDesktopSnippet, configSnippets, cursorSnippet, mcpEndpoint, sdkSnippet, vscodeSnippet } from "./config-snippets";

const URL_ = "https://gw.example.com/mcp";
const TOKEN = "pcs_abc123";

describe("agent config snippets", () => {
  it("puts the endpoint at /mcp of the origin", () => {
    expect(mcpEndpoint("https://gw.example.com")).toBe(URL_);
    expect(mcpEndpoint("https://gw.example.com/")).toBe(URL_);
  });

  it("gives the SDK a Streamable HTTP transport with the bearer header", () => {
    const text = sdkSnippet(URL_, TOKEN, 'ci "bot"');
    expect(text).toContain(`new StreamableHTTPClientTransport(new URL("${URL_}")`);
    expect(text).toContain(`requestInit: { headers: { Authorization: "Bearer ${TOKEN}" } }`);
    expect(text).toContain('name: "ci \\"bot\\""');
  });

  it("gives Claude Desktop an mcp-remote bridge with the header", () => {
    expect(JSON.parse(claudeDesktopSnippet(URL_, TOKEN))).toEqual({
      mcpServers: {
        portcullis: { command: "npx", args: ["-y", "mcp-remote", URL_, "--header", `Authorization: Bearer ${TOKEN}`] },
      },
    });
  });

  it("gives Cursor the URL and header", () => {
    expect(JSON.parse(cursorSnippet(URL_, TOKEN))).toEqual({
      mcpServers: { portcullis: { url: URL_, headers: { Authorization: `Bearer ${TOKEN}` } } },
    });
  });

  it("gives Claude Code one `claude mcp add` command over HTTP with the header as one shell word", () => {
    expect(claudeCodeSnippet(URL_, TOKEN)).toBe(
      `claude mcp add --transport http portcullis ${URL_} --header 'Authorization: Bearer ${TOKEN}'\n`,
    );
    // A URL with shell metacharacters stays one word, a quote in it included.
    expect(claudeCodeSnippet("http://h/mcp?a=1&b='x'", TOKEN)).toContain(String.raw`'http://h/mcp?a=1&b='\''x'\'''`);
  });

  it("gives VS Code an http server under `servers` with the header", () => {
    expect(JSON.parse(vscodeSnippet(URL_, TOKEN))).toEqual({
      servers: { portcullis: { type: "http", url: URL_, headers: { Authorization: `Bearer ${TOKEN}` } } },
    });
  });

  it("offers the five clients in order, each with the token and URL", () => {
    const all = configSnippets(URL_, TOKEN, "bot");
    expect(all.map((s) => s.id)).toEqual(["sdk", "claude", "claude-code", "cursor", "vscode"]);
    for (const s of all) {
      expect(s.text).toContain(TOKEN);
      expect(s.text).toContain(URL_);
    }
  });
});
