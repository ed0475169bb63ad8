// The failure cases of issue 20, one table row each: the query an agent writes, the tool it needs, over the
// official-style tools plus 500 realistic business tools (so the ranking has plenty to get wrong).
import { describe, expect, it } from "vitest";
import { realisticTools } from "../fixtures/realistic-tools";
import { createToolIndex, WEAK_HINT, type SearchableTool } from "../tool-search";
import { distinctionNotes } from "./distinguish";
import { OFFICIAL_TOOLS } from "./fixtures/official-tools";
import { toolOf } from "./fixtures/tool-of";
import { commandFirst, INVENTORY, nominalUse, passageWords, purposeWords, refusedVerbs, rejectedWords, withoutKept } from "./query-shape";

const official = new Set(OFFICIAL_TOOLS.map((t) => t.name));
const index = createToolIndex([...OFFICIAL_TOOLS, ...realisticTools(500).filter((t) => !official.has(t.name))]);
const ranked = (query: string, server?: string) =>
  index.search(query, { detail: "name", limit: 10, ...(server !== undefined && { server }) }).tools.map((t) => t.name);

describe("search_tools – the failure cases of issue 20", () => {
  it.each<[string, string, string, string?]>([
    ["lat/long → geocode", "what are the lat/long of 1600 Amphitheatre Parkway", "google-maps__maps_geocode"],
    ["draw → generate image", "draw a cat wearing a wizard hat", "everart__generate_image"],
    ["news → web search", "find news about the election results", "brave-search__brave_web_search"],
    ["what's ≠ whatsapp", "what's in the news today", "brave-search__brave_web_search", "whatsapp__"],
    ["check ≠ check_grammar", "check the weather in Paris", "weather__get_forecast"],
    ["api ≠ the acme server's api tool", "which api gives me the Oslo forecast", "weather__get_forecast"],
    ["GitHub ≠ GitLab", "open an issue on GitHub about the login crash", "github__create_issue"],
    ["PR → pull request", "open a PR from my feature branch", "github__create_pull_request"],
    ["PRs, plural", "merge those PRs", "github__merge_pull_request"],
    ["server named in the query", "list the tables in Postgres", "postgres__query"],
    ["server named in the query, other product", "search repositories in GitLab", "gitlab__search_repositories"],
    ["near-duplicates: comment on", "comment on issue 5 that it is fixed", "github__add_issue_comment"],
    ["near-duplicates: show", "show me issue 5", "github__get_issue"],
    ["tell → send message", "tell the #deploys channel that the release is out", "slack__slack_post_message"],
    ["not staged → unstaged", "what did I change that is not staged yet", "git__git_diff_unstaged"],
    ["now → current", "what time is it in Tokyo right now", "time__get_current_time"],
    ["what it turns down: an action", "archive the order instead of deleting it", "orders__archive_order"],
    ["what it turns down, fronted", "instead of deleting the order, archive it", "orders__archive_order"],
    ["what it turns down: creating", "update the invoice rather than creating a new one", "billing__update_invoice"],
    ["what it turns down, with a server named", "close issue 7 on GitHub instead of deleting it", "github__update_issue"],
    ["what it does without", "merge PR 5 without deleting the branch", "github__merge_pull_request"],
    ["what it does without, another action", "archive the order without refunding it", "orders__archive_order"],
    ["a command not to", "don't merge PR 5, just close it", "github__update_pull_request"],
    ["a command not to, after", "close the issue, don't delete it", "github__update_issue"],
    ["a command not to, spelled out", "do not merge PR 5, just close it", "github__update_pull_request"],
    ["a scene set before the command", "when the invoice is paid, archive the order", "orders__archive_order"],
    ["a scene with an action of its own", "before deleting the file, read it", "files__get_file"],
    ["a scene, then a message", "after the release is created, tell the #deploys channel", "slack__slack_post_message"],
    ["a scene set after the command", "archive the order when the invoice is paid", "orders__archive_order"],
    ["a scene after, with an action of its own", "read the file before you delete it", "files__get_file"],
    ["a scene after, with another action on another object", "merge PR 12 before you delete the branch", "github__merge_pull_request"],
    ["an American spelling of a British description", "show the whole catalog of items", "acme__list_widgets"],
    ["a hyphenated prefix", "re-open issue 7", "github__update_issue"],
    ["a command done again", "open issue 7 again", "github__update_issue"],
    ["full-width letters", "ｔｅｌｌ ｔｈｅ ＃ｄｅｐｌｏｙｓ ｃｈａｎｎｅｌ ｔｈａｔ ｔｈｅ ｒｅｌｅａｓｅ ｉｓ ｏｕｔ", "slack__slack_post_message"],
  ])("%s: %j finds %s first", (_case, query, expected, absent) => {
    const answer = ranked(query);
    expect(answer[0], answer.join(" ")).toBe(expected);
    if (absent) expect(answer.slice(0, 3).filter((name) => name.startsWith(absent))).toEqual([]);
  });

  it("keeps only the named server's tools with the server filter", () => {
    const answer = ranked("create an issue", "gitlab");
    expect(answer[0]).toBe("gitlab__create_issue");
    expect(answer.every((name) => name.startsWith("gitlab__"))).toBe(true);
    expect(ranked("create an issue", "no-such-server")).toEqual([]);
  });

  it("tells near-duplicates apart in one line each", () => {
    const answer = index.search("create an issue on github or gitlab", { detail: "summary", limit: 5 });
    expect(answer.tools.slice(0, 2).map((t) => [t.name, t.note])).toEqual([
      ["gitlab__create_issue", "on gitlab, not github"],
      ["github__create_issue", "on github, not gitlab"],
    ]);
    // Opening an issue is creating one; second comes the other GitHub tool that adds something to an issue (the
    // request-action model, D196, weighs adding over reading), and each says what it does that the other does not.
    const open = index.search("open an issue on GitHub about the login crash", { detail: "name", limit: 5 }).tools;
    expect(open.slice(0, 2).map((t) => [t.name, t.note])).toEqual([
      ["github__create_issue", "create, not add_issue_comment"],
      ["github__add_issue_comment", "add comment, not create_issue"],
    ]);
  });

  it("says when the best match is weak and points at the catalog", () => {
    expect(index.search("book a flight to Lisbon")).toMatchObject({ weak: true, hint: WEAK_HINT });
    expect(index.search("zzqxv")).toEqual({ tools: [], weak: true, hint: WEAK_HINT });
    expect(index.search("show me issue 5").weak).toBeUndefined();
    expect(index.search("what are the lat/long of 1600 Amphitheatre Parkway").weak).toBeUndefined();
  });
});

describe("search_tools – the action asked", () => {
  const records = createToolIndex([
    {
      name: "base__list_records",
      server: "base",
      tool: "list_records",
      description: "List the entries of a table in a base: each record with its content.",
      inputSchema: { type: "object", properties: { table: { type: "string", description: "Table name" } } },
    },
    {
      name: "base__create_records",
      server: "base",
      tool: "create_records",
      description: "Create records in a table.",
      inputSchema: { type: "object", properties: { table: { type: "string" }, fields: { type: "object" } } },
    },
  ]);

  it("ranks a tool whose name says another action below one that says the action asked", () => {
    expect(records.search("add an entry to the content table", { detail: "name" }).tools[0]?.name).toBe(
      "base__create_records",
    );
    expect(records.search("which entries are in the content table", { detail: "name" }).tools[0]?.name).toBe(
      "base__list_records",
    );
  });
});

describe("search_tools – what a request keeps", () => {
  // The memory server's own definitions (@modelcontextprotocol/server-memory), among the 500 realistic tools.
  const memory = indexOf([
    ["memory__delete_entities", "Delete multiple entities and their associated relations from the knowledge graph", ["entityNames"]],
    ["memory__delete_relations", "Delete multiple relations from the knowledge graph", ["relations"]],
    ["memory__search_nodes", "Search for nodes in the knowledge graph based on a query", ["query"]],
    ["memory__open_nodes", "Open specific nodes in the knowledge graph by their names", ["names"]],
  ], [...OFFICIAL_TOOLS.filter((t) => t.server !== "memory"), ...realisticTools(500).filter((t) => !official.has(t.name))]);

  it.each<[string, string]>([
    ["remove the works_at link between Alice and Initech from memory, but keep both nodes", "memory__delete_relations"],
    ["unlink Alice from Initech in memory but keep the nodes", "memory__delete_relations"],
    ["delete the relation between Bob and Acme in memory, but keep both entities", "memory__delete_relations"],
  ])("%j acts on what it does not keep: %s", (query, want) => {
    expect(firstOf(memory, query)).toBe(want);
  });

  it("drops the kept clause up to its punctuation, and nothing without one", () => {
    expect(withoutKept("drop the cache, but keep the config. Then restart").replace(/\s+/g, " ")).toBe("drop the cache . Then restart");
    expect(withoutKept("keep the config and drop the cache")).toBe("keep the config and drop the cache");
  });
});

describe("search_tools – what a request is for", () => {
  // Playwright's own definitions (@playwright/mcp), among the 500 realistic tools: its `browser_find` says "locate".
  const playwright = indexOf([
    ["playwright__browser_snapshot", "Capture accessibility snapshot of the current page, this is better than screenshot", ["target", "filename", "depth", "boxes"]],
    ["playwright__browser_find", "Search the accessibility snapshot of the current page for text or a regular expression. Returns matching snapshot nodes with a few lines of surrounding context (like search snippets), each shown under its path from the root of the tree, which is cheaper than capturing the whole snapshot when you only need to locate an element and its ref.", ["text", "regex", "filename"]],
    ["playwright__browser_click", "Perform click on a web page", ["element", "target", "doubleClick", "button", "modifiers"]],
  ], [...OFFICIAL_TOOLS, ...realisticTools(500).filter((t) => !official.has(t.name))]);

  it.each<[string, string]>([
    ["capture the Playwright page's accessibility tree so I can find the ref of the Sign in link", "playwright__browser_snapshot"],
    ["show me issue 5 on GitHub so I can comment on it", "github__get_issue"],
    ["geocode 1600 Amphitheatre Parkway so I can search for places near it", "google-maps__maps_geocode"],
  ])("after a command, what it is for is not what it does: %j is %s", (query, want) => {
    expect(firstOf(want.startsWith("playwright") ? playwright : index, query)).toBe(want);
  });

  it.each([
    ["read the deploy log file so I can paste it into Slack", "slack__"],
    ["search the web for the changelog so I can post it on GitHub", "github__"],
  ])("a server named only in what it is for is not where it acts: %j", (query, absent) => {
    const answer = ranked(query);
    expect(answer.slice(0, 3).filter((name) => name.startsWith(absent)), answer.join(" ")).toEqual([]);
  });

  it("reads a purpose clause up to its punctuation, and only its own words", () => {
    const clause = purposeWords("dump the tree so I can find the button, then click it");
    expect(["find", "button"].every((word) => clause.has(word)) && !clause.has("click") && !clause.has("tree")).toBe(true);
    expect(purposeWords("ack it so nobody else gets paged").has("paged")).toBe(true);
    expect(purposeWords("find the file so I can find its owner").has("find")).toBe(false);
    expect([...purposeWords("show the discussion so far")]).toEqual([]);
    // Its subject may be a few words, or the people a site serves.
    expect(purposeWords("mkdir -p src/ui so the scaffold script can write there").has("write")).toBe(true);
    expect(purposeWords("purge the CDN copy so visitors see the new version").has("see")).toBe(true);
  });
});

describe("search_tools – what a request turns down", () => {
  it("names no server it turns down", () => {
    const answer = ranked("open the issue on GitLab instead of GitHub");
    expect(answer[0], answer.join(" ")).toBe("gitlab__create_issue");
    expect(answer[1], answer.join(" ")).not.toMatch(/^github__/);
  });

  it("reads a command not to do something, and not a state", () => {
    expect([...refusedVerbs("don't delete the order, just archive it")]).toEqual(["delete"]);
    expect([...refusedVerbs("archive the order but never delete it, and do not refund it")]).toEqual(["delete", "refund"]);
    expect(refusedVerbs("find files that don't match *.ts").size).toBe(0);
    expect(refusedVerbs("which invoices haven't been paid").size).toBe(0);
  });

  it("reads the alternative up to its punctuation, and only its own words", () => {
    const turnedDown = rejectedWords("instead of deleting the order, archive it");
    expect(turnedDown.has("deleting") && turnedDown.has("order") && !turnedDown.has("archive")).toBe(true);
    expect(rejectedWords("delete the order rather than the invoice").has("order")).toBe(false);
    expect([...rejectedWords("archive the order")]).toEqual([]);
  });
});

describe("search_tools – the scene a command is set in", () => {
  it("reads the command first and the clause's own words apart; a question is no clause", () => {
    const { query, scene } = commandFirst("when the invoice is paid, archive the order");
    expect(query.startsWith("archive the order")).toBe(true);
    expect(scene.has("invoice") && scene.has("paid") && !scene.has("order")).toBe(true);
    expect(commandFirst("when's the next pay run, and which went out?").scene.size).toBe(0);
    expect(commandFirst("when is the invoice due, and to whom?").scene.size).toBe(0);
    expect(commandFirst("archive the order").query).toBe("archive the order");
    expect([...commandFirst("read the file before you delete it").scene]).toEqual(["before", "you", "delete", "it"]);
    expect(commandFirst("list the orders before March 3").scene.size).toBe(0);
  });

  it("reads a trailing clause before a question mark too, and sets a question's scene apart, its server still named", () => {
    expect([...commandFirst("do we have a customer for maria@x.io before I make a new one?").scene]).toEqual(["before", "make", "new", "one"]);
    const stripe = indexOf([
      ["stripe__create_customer", "Create a Stripe customer with email, name and optional metadata.", ["email", "name", "metadata"]],
      ["stripe__list_customers", "List Stripe customers, optionally filtered by email.", ["email", "limit", "cursor"]],
      ["stripe__create_invoice", "Create a draft invoice for a customer.", ["customer", "days_until_due"]],
    ], realisticTools(500));
    expect(firstOf(stripe, "Do we already have a billing profile in Stripe for maria.gonzalez@fincorp.io before I make a new one?")).toBe(
      "stripe__list_customers",
    );
  });

  it("reads a fronted place after the command or question it comes before, its words kept", () => {
    expect(commandFirst("On the local disk, mkdir -p /srv/app").query).toBe("mkdir -p /srv/app — On the local disk");
    expect(commandFirst("In QuickBooks, who do we owe?")).toEqual({ query: "who do we owe? — In QuickBooks", scene: new Set() });
    expect(commandFirst("in the morning send the report").query).toBe("in the morning send the report");
  });

  it("finds the command after a fronted place", () => {
    const files = indexOf([
      ["fs__create_directory", "Create a new directory or ensure a directory exists.", ["path"]],
      ["fs__write_file", "Create a new file or completely overwrite an existing file with new content.", ["path", "content"]],
      ["fs__list_directory", "Get a detailed listing of all files and directories in a specified path.", ["path"]],
    ]);
    expect(firstOf(files, "On the local disk, mkdir -p /home/dev/app/src/components/ui so the scaffold script can write there.")).toBe(
      "fs__create_directory",
    );
  });
});

describe("search_tools – what there is", () => {
  // Each went to the server's tool that gets one (`get_pull_request`, `get_ticket`) or elsewhere (maps directions)
  // before: a question about what there is of a plural thing asks for them all.
  it.each([
    ["what pull requests are there in octo/app on GitHub", "github__list_pull_request"],
    ["which tickets are open in the helpdesk", "tickets__list_ticket"],
    ["which invoices do we have in billing", "billing__list_invoice"],
    ["what files are stored in the drive", "files__list_file"],
  ])("%j lists them: %s", (query, want) => {
    expect(ranked(query)[0]).toBe(want);
  });

  it.each([
    ["what entries are stored in the vault?", true],
    ["which Slack rooms exist", true],
    ["what forms do we have in HubSpot", true],
    ["which sprints are active on board 42?", true],
    ["what is the status of PR 5?", false],
    ["which invoice is overdue?", false],
    ["show the open issues", false],
  ])("%j asks what there is: %s", (query, inventory) => {
    expect(INVENTORY.test(query)).toBe(inventory);
  });
});

describe("search_tools – an action word used as a noun", () => {
  // "posts" counted, "run" placed in time: things asked about, not actions asked for. Before, "the last 30 posts"
  // covered `post_message`'s action and ranked it above the channel's history.
  it.each([
    ["the last 30 posts", "posts", true],
    ["when is the next pay run", "run", true],
    ["show her latest build", "build", true],
    ["post the update", "update", true],
    ["post the update", "post", false],
    ["first run the tests", "run", false],
    ["next, deploy the app", "deploy", false],
    ["have the bot post the summary", "post", false],
    ["sorted by most recently updated", "updated", true],
    ["the newly created users", "created", true],
    ["just merge PR 5", "merge", false],
  ])("%j: %j is a noun: %s", (query, word, noun) => {
    expect(nominalUse(query, word)).toBe(noun);
  });

  it("ranks a channel's history above posting for the last posts", () => {
    // Slack's own definitions (@modelcontextprotocol/server-slack), among the 500 realistic tools.
    const slack = indexOf([
      ["slack__slack_post_message", "Post a new message to a Slack channel", ["channel_id", "text"]],
      ["slack__slack_reply_to_thread", "Reply to a specific message thread in Slack", ["channel_id", "thread_ts", "text"]],
      ["slack__slack_get_channel_history", "Get recent messages from a channel", ["channel_id", "limit"]],
      ["slack__slack_get_thread_replies", "Get all replies in a message thread", ["channel_id", "thread_ts"]],
    ], realisticTools(500));
    expect(firstOf(slack, "what's been said lately in Slack #incidents (C024BE91L)? last 30 posts")).toBe("slack__slack_get_channel_history");
  });
});

describe("search_tools – what a request turns down, and whose whole name it writes", () => {
  it("names the server whose whole name the query writes, not the others that share a word of it", () => {
    const google = indexOf([
      ["google-maps__maps_search_places", "Search for places using Google Places API", ["query", "location", "radius"]],
      ["google-maps__maps_place_details", "Get detailed information about a specific place", ["place_id"]],
      ["google-analytics__list_properties", "List GA4 properties of the account.", []],
      ["google-analytics__run_report", "Run a GA4 report of dimensions and metrics over a date range.", ["property_id", "dimensions", "metrics"]],
    ], realisticTools(500));
    expect(firstOf(google, "Which Google Analytics sites am I able to pull data from? I need the numeric ID for the shop.")).toBe(
      "google-analytics__list_properties",
    );
    // One word of several names still names each of them.
    expect(firstOf(google, "find coffee places near Union Square on Google")).toBe("google-maps__maps_search_places");
  });
});

describe("search_tools – a quoted passage is the text worked on", () => {
  it.each<[string, string[]]>([
    ["proofread this: 'Their going to recieve the package tommorow'", ["their", "going", "to", "recieve", "the", "package", "tommorow"]],
    ["how do you say \"Your order has shipped\" in German?", ["your", "order", "has", "shipped"]],
    // A short quote is a name ("a doc called 'Meeting notes'"), whose words stay the request's.
    ["start a doc called 'Meeting notes'", []],
    // A word the request writes outside the passage too is the request's.
    ["check the grammar of 'the grammar is fine here'", ["is", "fine", "here"]],
  ])("%j: %j", (query, passage) => {
    expect([...passageWords(query)]).toEqual(passage);
  });

  it("finds the grammar checker for a passage about the weather", () => {
    const tools = indexOf([
      ["languagetool__check_grammar", "Check text for grammar, spelling and style errors and suggest corrections.", ["text", "language"]],
      ["openweather__get_current_weather", "Current weather for a city or coordinates: temperature, wind, humidity, conditions.", ["city", "lat", "lon", "units"]],
      ["openweather__get_forecast", "Five-day forecast in three-hour steps.", ["city", "lat", "lon", "units"]],
      ["deepl__translate_text", "Translate text between languages.", ["text", "target_lang", "source_lang", "formality"]],
    ], realisticTools(500));
    expect(firstOf(tools, "check this for mistakes: 'the weather in Paris is raining and cold today'")).toBe(
      "languagetool__check_grammar",
    );
  });
});

/** An index of the tools given as [`server__tool`, description, argument names (strings)], and of `others`. */
function indexOf(tools: ReadonlyArray<readonly [string, string, (readonly string[])?]>, others: readonly SearchableTool[] = []) {
  return createToolIndex([...tools.map(([name, description, args]) => toolOf(name, description, args)), ...others]);
}
const firstOf = (index: ReturnType<typeof indexOf>, query: string) =>
  index.search(query, { detail: "name" }).tools[0]?.name;

describe("search_tools – a new status asked for", () => {
  // A tracker's tools as the bench's Jira server lists them.
  const tracker = indexOf([
    [
      "tracker__create_issue",
      "Create a Jira issue (story, bug, task) in a project.",
      ["project_key", "summary", "issue_type", "description", "assignee", "priority"],
    ],
    [
      "tracker__get_issue",
      "Get a Jira issue by key with its fields, status, comments and links.",
      ["issue_key", "expand"],
    ],
    ["tracker__update_issue", "Edit fields of a Jira issue.", ["issue_key", "fields"]],
    ["tracker__search_issues", "Search Jira issues with JQL.", ["jql", "fields", "max_results"]],
    [
      "tracker__transition_issue",
      "Move a Jira issue through its workflow, e.g. To Do → In Progress → Done.",
      ["issue_key", "transition", "comment"],
    ],
    ["tracker__add_comment", "Add a comment to a Jira issue.", ["issue_key", "body"]],
    ["tracker__assign_issue", "Assign a Jira issue to a user, or unassign it.", ["issue_key", "account_id"]],
    ["tracker__list_sprints", "List sprints of a Scrum board.", ["board_id", "state"]],
    ["tracker__move_issues_to_sprint", "Move issues into a sprint.", ["sprint_id", "issue_keys"]],
    [
      "tracker__log_work",
      "Log time spent on a Jira issue (worklog).",
      ["issue_key", "time_spent", "comment", "started"],
    ],
    [
      "tracker__link_issues",
      "Link two Jira issues, e.g. blocks or duplicates.",
      ["inward_issue", "outward_issue", "link_type"],
    ],
    ["tracker__list_projects", "List Jira projects visible to the user.", ["limit", "cursor"]],
    ["tracker__create_version", "Create a release version in a Jira project.", ["project_key", "name", "release_date"]],
  ]);

  it.each([
    ["set ticket PAY-412 to Done", "tracker__transition_issue"],
    ["mark PROJ-7 as resolved", "tracker__transition_issue"],
    ["PROJ-88: I'm starting on it, change its state", "tracker__transition_issue"],
    ["set the summary of PROJ-7 to 'Login fails on Safari'", "tracker__update_issue"],
  ])("%j → %s", (query, expected) => {
    expect(firstOf(tracker, query)).toBe(expected);
  });
});

describe("search_tools – a server named as it writes its name", () => {
  const people = indexOf([
    ["teams__get_presence", "Get a user's presence status: available, busy or away.", ["user"]],
    [
      "hr__whos_out",
      "List the employees who are out on approved leave, holiday or vacation in a date range.",
      ["start", "end"],
    ],
  ]);

  it('finds a server written as one word with capitals inside ("BambooHR")', () => {
    const hr = indexOf([
      ["bamboohr__request_time_off", "Submit a time-off request for an employee."],
      ["calendar__book_time_off", "Book time off in the calendar: block a day or a range of days off."],
    ]);
    expect(firstOf(hr, "book time off Dec 22 to Jan 2 in BambooHR")).toBe("bamboohr__request_time_off");
  });

  it('reads "GCal" as Google Calendar', () => {
    const calendars = indexOf([
      ["google-calendar__list_events", "List events between two dates."],
      ["outlook__list_calendar_events", "List the events of the user's calendar schedule in a date range."],
    ]);
    expect(firstOf(calendars, "what's on my GCal schedule March 3–7?")).toBe("google-calendar__list_events");
  });

  it("reads a DM as a private chat message", () => {
    const chat = indexOf([
      ["teams__send_chat_message", "Send a message in a one-to-one or group chat."],
      ["teams__send_channel_message", "Post a message to a Microsoft Teams channel."],
    ]);
    expect(firstOf(chat, "DM Priya on Microsoft Teams that the build is green")).toBe("teams__send_chat_message");
  });

  it.each([
    ["who on the team is away on vacation next week?", "hr__whos_out"],
    ["which people of Team Platform are away on vacation?", "hr__whos_out"],
    ["is Priya away right now on Teams?", "teams__get_presence"],
  ])("%j → %s", (query, expected) => {
    expect(firstOf(people, query)).toBe(expected);
  });
});

describe("distinctionNotes", () => {
  const note = (tool: string, server: string) => {
    const nameWords = tool.split("_");
    return { server, tool, nameWords, nameTerms: nameWords, objectTerms: nameWords.filter((w) => w !== "send") };
  };

  it("names the other tool and its server when both differ", () => {
    expect(distinctionNotes([note("send_chat_message", "teams"), note("send_message", "discord")])).toEqual([
      "on teams, chat, not send_message on discord",
      "on discord, not send_chat_message on teams",
    ]);
  });

  it("leaves tools about different objects alone", () => {
    expect(distinctionNotes([note("send_message", "chat"), note("send_invoice", "billing")])).toEqual([
      undefined,
      undefined,
    ]);
  });
});
