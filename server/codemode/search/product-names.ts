// Product names (and a few compounds) written as one word although their parts are words too: kept whole, so "GitHub" is
// not git + hub (and does not match GitLab through "git"), and an identifier such as `createGitHubIssue`
// yields "github". Each entry lists its spellings once split into identifier words; the first is the name.
import { splitIdentifier } from "../../registry/split-identifier";

const NAMES: readonly string[] = [
  "github",
  "gitlab",
  "bitbucket",
  "postgres postgresql postgre psql",
  "mysql",
  "sqlite",
  "mongodb mongo",
  "dynamodb dynamo",
  "bigquery",
  "redis",
  "elasticsearch",
  "opensearch",
  "clickhouse",
  "snowflake",
  "whatsapp",
  "youtube",
  "linkedin",
  "facebook",
  "instagram",
  "tiktok",
  "twitter",
  "dropbox",
  "onedrive",
  "sharepoint",
  "hubspot",
  "mailchimp",
  "sendgrid",
  "salesforce",
  "zendesk",
  "pagerduty",
  "datadog",
  "cloudflare",
  "cloudwatch",
  "openai",
  "chatgpt",
  "gmail",
  "quickbooks",
  "freshdesk",
  "servicenow",
  "jira",
  "confluence",
  "trello",
  "asana",
  "notion",
  "airtable",
  "shopify",
  "woocommerce",
  "paypal",
  "stripe",
  "kubernetes k8s",
  "docker",
  "terraform",
  "javascript",
  "typescript",
  "nodejs",
  "graphql",
  "openapi",
  "oauth",
  "devops",
  "everart",
  "macos",
  "iphone",
  "gcal",
  "gdrive",
  "gsheets",
  "gmaps",
  "arxiv",
  "powerpoint",
  "sentry",
  "vercel",
  "netlify",
  "heroku",
  "twilio",
  "zoom",
  "webex",
  "webhook",
  "ecommerce",
  "filesystem",
  "fulltext",
  "username",
  "password",
  "oncall oncalls",
  "pnl",
  "qna",
];

/**
 * A server's one-word name as a query writes it ("BambooHR", "1Password", "DeepL", "OpenWeather"), in lower case so
 * that it stays one word: split as an identifier it would be words of its own ("bamboo", "hr") that name nothing.
 * `names`: the words of the servers' names (`bamboohr`, `1password`).
 */
export function keepServerNamesWhole(text: string, names: ReadonlySet<string>): string {
  return text.replace(/[\p{L}\d]+/gu, (token) => {
    const lower = token.toLowerCase();
    return lower !== token && names.has(lower) && splitIdentifier(token).length > 1 ? lower : token;
  });
}

const canonical = new Map<string, string>();
for (const entry of NAMES) {
  const [name, ...aliases] = entry.split(" ");
  for (const spelling of [name!, ...aliases]) canonical.set(spelling, name!);
}

/** The product name a lower-case word is a spelling of ("postgresql" → "postgres"), or undefined. */
export function productName(word: string): string | undefined {
  return canonical.get(word);
}

/** Rejoins identifier words that spell a product name: ["create", "git", "hub", "issue"] → [..., "github", ...]. */
export function joinProductNames(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    let joined: string | undefined;
    let used = 1;
    // Longest first: three pieces ("power", "point", …) before two.
    for (let n = Math.min(3, words.length - i); n >= 2 && !joined; n--) {
      const name = productName(words.slice(i, i + n).join(""));
      if (name) [joined, used] = [name, n];
    }
    out.push(joined ?? productName(words[i]!) ?? words[i]!);
    i += used - 1;
  }
  return out;
}
