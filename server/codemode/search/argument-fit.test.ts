import { describe, expect, it } from "vitest";
import { argumentFit, queryValues, schemaSlots, type ValueKind } from "./argument-fit";

const kindsOf = (query: string) =>
  [...queryValues(query)].map(([kind, { many }]) => `${kind}${many ? "*" : ""}`).sort();

describe("queryValues", () => {
  it.each<[string, string[]]>([
    ["pull up PROJ-1234 in Jira along with its comments", ["id"]],
    ["average CPU of instance i-0abc123 over the last 6 hours", ["date", "id"]],
    ["what pages sit underneath the Onboarding page 98304?", ["id"]],
    ["give my LGTM on PR #87", ["id"]],
    ["make jane.doe@corp.com a member of Engineering-VPN", ["email"]],
    ["open https://staging.acme.dev/login in the browser", ["url"]],
    ["list every link on docs.example.com", ["url"]],
    ["ring +1 650 555 0100 and say out loud 'the payments server is down'", ["phone", "text"]],
    ["what's located at 40.7484, -73.9857? street and city please", ["coordinates"]],
    ["grab /Contracts/2024/acme-msa.pdf out of our Dropbox", ["path"]],
    ["commit src/index.ts, package.json and README.md together", ["path*"]],
    ["find every *.test.ts under ~/projects/api", ["path*"]],
    ["who on the team is away on vacation Dec 22–26?", ["date"]],
    ["tell the #deploys room on Slack that the release is out", ["channel", "text"]],
    ["file a Jira bug: checkout button unresponsive", ["text"]],
    ["can priya@acme.com and tom@acme.com both do a sync next Tuesday?", ["date", "email*"]],
    // No values: measures, versions, quarters and names are none.
    ["bump the web deployment to 5 replicas", []],
    ["in 5-minute buckets for Q3", []],
    ["Playwright: hit Enter", []],
    ["what did reviewers say in the inline remarks on PR 5", []],
  ])("%s", (query, kinds) => {
    expect(kindsOf(query)).toEqual(kinds);
  });
});

const schema = (properties: Record<string, object>, required: string[] = []) => ({
  type: "object",
  properties,
  required,
});
const slotKinds = (s: object) => schemaSlots(s).map((slot) => [...slot.kinds].sort().join("/"));

describe("schemaSlots", () => {
  it.each<[string, object, string[]]>([
    ["lat/long by name", schema({ latitude: { type: "number" }, lng: { type: "number" } }), ["coordinates", "coordinates"]],
    ["a key", schema({ issue_key: { type: "string" } }), ["id"]],
    ["a body", schema({ body: { type: "string" } }), ["text"]],
    ["by format", schema({ since: { type: "string", format: "date-time" }, site: { type: "string", format: "uri" } }), ["date", "url"]],
    ["by description", schema({ to: { type: "string", description: "Destination phone number (E.164)" } }), ["phone"]],
    ["a recipient", schema({ to: { type: "string" } }), ["email/phone"]],
    ["a user", schema({ assignee: { type: "string" } }), ["email"]],
    ["a date is no recipient", schema({ to_date: { type: "string" } }), ["date"]],
    ["unknown", schema({ owner: { type: "string" }, repo: { type: "string" } }), ["", ""]],
    [
      "a list of objects takes its items' kinds, not their text",
      schema({ files: { type: "array", items: { type: "object", properties: { path: {}, content: {} } } } }),
      ["path"],
    ],
  ])("%s", (_, input, kinds) => {
    expect(slotKinds(input)).toEqual(kinds);
  });

  it("reads lists of objects two levels deep, and no deeper however far a schema nests", () => {
    let deep: object = { type: "string" };
    for (let i = 0; i < 100_000; i++) deep = { type: "array", items: { type: "object", properties: { path: deep } } };
    expect(slotKinds(schema({ changes: deep }))).toEqual(["path"]);
    const nested = (levels: number) => {
      let node: object = { type: "string" };
      for (let i = 0; i < levels; i++) node = { type: "array", items: { type: "object", properties: { [i === 0 ? "path" : "entry"]: node } } };
      return schema({ changes: node });
    };
    expect(slotKinds(nested(2))).toEqual(["path"]);
    expect(slotKinds(nested(3))).toEqual([""]);
  });

  it("marks required and list properties; a schema without properties has no slots", () => {
    expect(schemaSlots(schema({ ids: { type: "array" }, q: {} }, ["q"]))).toEqual([
      { kinds: new Set<ValueKind>(["id"]), required: false, list: true },
      { kinds: new Set(), required: true, list: false },
    ]);
    expect(schemaSlots({ type: "object" })).toEqual([]);
    expect(schemaSlots(null)).toEqual([]);
  });
});

describe("argumentFit", () => {
  const fit = (query: string, s: object) => argumentFit(queryValues(query), schemaSlots(s));
  const getIssue = schema({ issue_key: {}, expand: { type: "array" } }, ["issue_key"]);
  const addComment = schema({ issue_key: {}, body: {} }, ["issue_key", "body"]);
  const geocode = schema({ address: {} }, ["address"]);
  const reverse = schema({ latitude: { type: "number" }, longitude: { type: "number" } }, ["latitude", "longitude"]);
  const oneFile = schema({ path: {}, content: {}, message: {} }, ["path", "content", "message"]);
  const manyFiles = schema(
    { files: { type: "array", items: { type: "object", properties: { path: {}, content: {} } } }, message: {} },
    ["files", "message"],
  );

  it.each<[string, string, object, object]>([
    ["an id fits both; a comment to write that the query lacks counts against", "pull up PROJ-1234 with its comments", getIssue, addComment],
    ["the comment quoted, the commenting tool fits", "comment 'shipped' on PROJ-1234", addComment, getIssue],
    ["coordinates fit latitude and longitude", "what's at 40.7484, -73.9857?", reverse, geocode],
    ["several files fit a list of files", "commit src/a.ts, b.json and README.md in one go", manyFiles, oneFile],
  ])("%s", (_, query, better, worse) => {
    expect(fit(query, better)).toBeGreaterThan(fit(query, worse));
  });

  it.each<[string, string, object, number]>([
    ["nothing given, nothing known required", "list my repositories", schema({ owner: {}, repo: {} }, ["owner", "repo"]), 0],
    ["a missing id or date counts for nothing", "show the issue", schema({ issue_key: {}, since: {} }, ["issue_key", "since"]), 0],
    ["all given", "what's at 40.7484, -73.9857?", reverse, 1],
    ["a required text not given", "post to the channel", schema({ text: {} }, ["text"]), -1],
    ["one of two values taken", "mail bob@x.com the file /tmp/a.pdf", schema({ to: {} }, ["to"]), 0.5],
  ])("%s", (_, query, s, expected) => {
    expect(fit(query, s)).toBe(expected);
  });
});
