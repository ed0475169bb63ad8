import { describe, expect, it } from "vitest";
import { termOf } from "./normalize";
import { keepServerNamesWhole } from "./product-names";
import { americanSpelling, spellingCacheSize } from "./spelling";
import { words } from "./words";

describe("words", () => {
  it.each<[string, string[]]>([
    ["delete_order", ["delete", "order"]],
    ["deleteOrder", ["delete", "order"]],
    ["delete-order", ["delete", "order"]],
    ["bucket.list", ["bucket", "list"]],
    ["HTTPServer", ["http", "server"]],
    ["getHTTPServerURL", ["get", "http", "server", "url"]],
    ["sha256Hash s3 ec2", ["sha256", "hash", "s3", "ec2"]],
    ["GitHub", ["github"]],
    ["createGitHubIssue", ["create", "github", "issue"]],
    ["gitlab_create_issue", ["gitlab", "create", "issue"]],
    ["GitHub's PRs", ["github", "prs"]],
    ["PostgreSQL", ["postgres"]],
    ["query postgresql and Postgres", ["query", "postgres", "and", "postgres"]],
    ["WhatsApp whats_app", ["whatsapp", "whatsapp"]],
    ["what's up", ["what", "up"]],
    ["listPRs listPRsNow", ["list", "prs", "list", "prs", "now"]],
    ["Git Hub", ["github"]],
    ["GCal, arXiv, GDrive", ["gcal", "arxiv", "gdrive"]],
    ["lat/long of 1600 Amphitheatre Parkway", ["lat", "long", "of", "amphitheatre", "parkway"]],
    ["issue #5, PR 12", ["issue", "pr"]],
    ["who is on call, on-call, list_oncalls", ["who", "is", "oncall", "oncall", "list", "oncall"]],
    ["P&L for Q3, PnL, Q&A, R&D", ["pnl", "for", "q3", "pnl", "qna", "rnd"]],
    ["x y z", []],
    ["Lösche die Bestellung!", ["lösche", "die", "bestellung"]],
    ["Ｓｌａｃｋ ｍｅｓｓａｇｅ ＃ｄｅｐｌｏｙｓ", ["slack", "message", "deploys"]],
    ["ﬁnd the ﬁle", ["find", "the", "file"]],
    ["re-open, un-archive, de-register", ["reopen", "unarchive", "deregister"]],
    ["e-signature, sub-task", ["signature", "sub", "task"]],
    ["delete-order re-x de-DE", ["delete", "order", "re", "de", "de"]],
    ["Lo\u0308sche", ["lösche"]],
    ["", []],
  ])("%j → %j", (text, expected) => {
    expect(words(text)).toEqual(expected);
  });
});

describe("keepServerNamesWhole", () => {
  const servers = new Set(["bamboohr", "1password", "deepl", "openweather", "slack", "google", "maps"]);
  it.each<[string, string[]]>([
    ["book leave in BambooHR", ["book", "leave", "in", "bamboohr"]],
    ["what is in our 1Password vault", ["what", "is", "in", "our", "1password", "vault"]],
    ["translate with DeepL", ["translate", "with", "deepl"]],
    ["OpenWeather forecast for Oslo", ["openweather", "forecast", "for", "oslo"]],
    // Names that are one word already, or that no server has, are left to words() as before.
    ["post in Slack", ["post", "in", "slack"]],
    ["Google Maps", ["google", "maps"]],
    ["ask LanguageTool", ["ask", "language", "tool"]],
  ])("%j → %j", (text, expected) => {
    expect(words(keepServerNamesWhole(text, servers))).toEqual(expected);
  });

  it("keeps a name's capital where splitting would change nothing", () => {
    expect(keepServerNamesWhole("post in Slack", servers)).toBe("post in Slack");
  });
});

describe("termOf", () => {
  it.each<[string, string | null]>([
    ["orders", "order"],
    ["ordering", "order"],
    ["Searching", "search"],
    ["news", "news"],
    ["status", "status"],
    ["many", null],
    ["each", null],
    ["cant", null],
    ["isnt", null],
    ["gps", "gps"],
    ["PRs", "pr"],
    ["ips", "ip"],
    ["db", "db"],
    ["postgres", "postgres"],
    ["github", "github"],
    ["the", null],
    ["whats", null],
    ["please", null],
    ["x", null],
  ])("%j → %j", (word, term) => {
    expect(termOf(word)).toBe(term);
  });
});

describe("British spellings", () => {
  it.each<[string, string]>([
    ["organisation", "organization"],
    ["organised", "organized"],
    ["colours", "colors"],
    ["behaviour", "behavior"],
    ["analyse", "analyze"],
    ["licence", "license"],
    ["catalogue", "catalog"],
    ["centre", "center"],
    ["programme", "program"],
    ["enrolment", "enrollment"],
    ["summarise", "summarize"],
    ["organising", "organizing"],
    ["analysing", "analyzing"],
  ])("%j meets %j at one term", (british, american) => {
    expect(termOf(british)).toBe(termOf(american));
  });

  it.each<[string, string]>([
    ["tour", "tor"],
    ["acre", "acer"],
    ["course", "corse"],
    ["promise", "promize"],
    ["unique", "unick"],
    ["sentence", "sentense"],
  ])("%j is not %j: WordNet does not list them as one word", (word, lookalike) => {
    expect(americanSpelling(word)).toBe(word);
    expect(termOf(word)).not.toBe(termOf(lookalike));
  });

  it("keeps a bounded cache however many distinct words are asked", () => {
    for (let i = 0; i < 25_000; i++) americanSpelling(`zz${i.toString(36)}our`);
    expect(spellingCacheSize()).toBeLessThanOrEqual(20_000);
    expect(americanSpelling("colour")).toBe("color");
  });
});
