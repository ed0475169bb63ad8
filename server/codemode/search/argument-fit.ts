// Argument fit: how well the values a query carries (an issue key, an e-mail address, a URL, a phone number,
// file paths, a pair of coordinates, a date, a quoted text, a #channel) fit a tool's input schema. "what's at
// 40.7484, -73.9857?" fits `reverse_geocode(latitude, longitude)` better than `geocode(address)`; "PROJ-1234
// with its comments" fits `get_issue(issue_key)` better than `add_comment(issue_key, body)`, whose comment the
// query does not write; three file names fit `push_files(files[])` better than `create_or_update_file(path)`.
// Words say which tool; values only order near-duplicates that the words match alike. Pure.
import { QUOTED } from "./query-shape";
import { isObject } from "./tool-fields";
import { words } from "./words";

/** What a query value is, and what a property takes. */
export type ValueKind = "id" | "email" | "url" | "phone" | "path" | "coordinates" | "date" | "text" | "channel";

/** The values of a query by kind, each with whether the query gives several ("a.ts, b.ts and c.md"). */
export type QueryValues = ReadonlyMap<ValueKind, { many: boolean }>;

/** A top-level property of a tool's input: the kinds of value it takes (none known: any), required, a list. */
export type ArgSlot = { kinds: ReadonlySet<ValueKind>; required: boolean; list: boolean };

// ---- Values of a query ----

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const URL = /\bhttps?:\/\/\S+|\b(?:[a-z\d-]+\.)+(?:com|org|net|io|dev|app|co|ai|so|edu|gov)(?:\/\S*)?(?![\w.])/gi;
const PHONE = /(?<![\w.])\+\d[\d ().-]{6,}\d(?![\w.])/g;
const COORDINATES = /(?<![\d.])-?\d{1,3}\.\d{2,}\s*,\s*-?\d{1,3}\.\d{2,}(?![\d.])/g;
const FILE =
  /(?:~|\.{1,2})?\/?(?:[\w*.-]+\/)*[\w*-]*\.(?:ya?ml|json|tsx?|jsx?|mjs|md|txt|csv|tsv|pdf|py|go|rs|java|rb|php|toml|ini|env|conf|cfg|xml|html?|css|sql|sh|log|png|jpe?g|gif|svg|docx?|xlsx?|pptx?|zip|gz|tar|lock|apk)\b|(?:~|\.{1,2})?\/[\w.*-]+(?:\/[\w.*-]+)+\/?/gi;
// Text to write, unquoted: after a colon ("leave a note: shipped"), or what a message says ("tell Bob that …").
const UNQUOTED_TEXT =
  /^(?:\S+\s+){2,}\S+:\s+\S+\s+\S+|\b(?:saying|that says|say out loud)\b\s+\S+|\b(?:say|tell|telling|dm|message|ping|remind|notify|let \w+ know)\b.*?\bthat\s+\S+\s+\S+/i;
const CHANNEL = /(?:^|\s)#[a-z][\w-]*/gi;
const MONTH = "jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec";
const DATE = new RegExp(
  `\\b\\d{4}-\\d{2}-\\d{2}\\b|\\b(?:${MONTH})[a-z]*\\.?\\s+\\d{1,2}\\b|\\b\\d{1,2}\\s+(?:${MONTH})[a-z]*\\b|\\b(?:today|tomorrow|yesterday|tonight|monday|tuesday|wednesday|thursday|friday|saturday|sunday|(?:last|next|this|past|previous)\\s+(?:\\d+\\s+)?(?:minutes?|hours?|days?|weeks?|months?|quarters?|years?)|\\d+\\s+(?:minutes?|hours?|days?|weeks?|months?)\\s+ago)\\b|\\b(?:since|until|before|after)\\s+(?:${MONTH})`,
  "i",
);
// A key or id: letters and digits mixed ("PROJ-1234", "i-0abc123", "mon_4821", "18f3c2d1"), "#87", or a number
// of three digits or more after a noun ("page 98304", "contact 50123"); not a file, date, time or measure.
const ID_TOKEN = /^(?=[\w-]*\d)(?=[\w-]*[a-z])[a-z\d][\w-]{3,}$/i;
const MEASURE = /^\d+(?:-?[a-z]{1,7}|st|nd|rd|th)$|^q\d$|^\d{1,2}(?:am|pm)$|^[a-z]{1,3}\d$|^\d+(?:x|k|m|gb|mb|kb|ms|s)$/i;
const NUMBERED = /(?:^|\s)#\d+\b|\b[a-z]+\s+\d{3,}\b/gi;

export function queryValues(query: string): QueryValues {
  const values = new Map<ValueKind, { many: boolean }>();
  const add = (kind: ValueKind, count: number) => {
    if (count > 0) values.set(kind, { many: count > 1 || (values.get(kind)?.many ?? false) });
  };
  let rest = query;
  // Each value is taken out of the text once found, so that an address's domain is no URL of its own.
  const take = (pattern: RegExp): string[] => {
    const found = rest.match(pattern) ?? [];
    rest = rest.replace(pattern, " ");
    return found;
  };
  add("email", take(EMAIL).length);
  add("url", take(URL).length);
  add("coordinates", take(COORDINATES).length);
  add("phone", take(PHONE).length);
  const quoted = take(QUOTED);
  add("text", quoted.length > 0 || UNQUOTED_TEXT.test(rest) ? 1 : 0);
  add("path", take(FILE).length);
  add("channel", take(CHANNEL).length);
  if (DATE.test(rest)) add("date", 1);
  const ids = rest.split(/[\s,;()?!]+/).filter((token) => ID_TOKEN.test(token.replace(/[.:]$/, "")) && !MEASURE.test(token));
  add("id", ids.length + (rest.match(NUMBERED) ?? []).filter((m) => !/\b(?:19|20)\d\d\b/.test(m)).length);
  return values;
}

// ---- Slots of a schema ----

// By a property's name words (and, for a few kinds, its description), what it takes.
const KIND_NAMES: [ValueKind, RegExp][] = [
  ["coordinates", /^(?:lat|latitude|lng|lon|long|longitude|coordinates?|location)$/],
  ["email", /^e?mails?$/],
  ["url", /^(?:url|urls|uri|href|link|website|domain)$/],
  ["phone", /^(?:phone|phones|tel|mobile|msisdn)$/],
  ["path", /^(?:path|paths|file|files|filename|filepath|dir|directory|folder|glob)$/],
  ["date", /^(?:date|dates|since|until|after|before|start|end|day|week|month|datetime|timestamp)$/],
  ["text", /^(?:body|text|content|message|comment|note|say|caption|markdown|html|reply)$/],
  ["channel", /^(?:channel|channels)$/],
  ["id", /^(?:id|ids|key|keys|sid|ref|number|uuid|gid|handle)$/],
];
const KIND_DESCRIPTIONS: [ValueKind, RegExp][] = [
  ["email", /\be-?mail address/i],
  ["url", /\b(?:url|uri)\b/i],
  ["phone", /\bphone\b|\be\.164\b/i],
  ["date", /\b(?:date|iso 8601|timestamp)\b/i],
  ["path", /\b(?:file ?path|path to|absolute path|relative path|glob)\b/i],
];
const FORMAT_KINDS: Record<string, ValueKind> = {
  email: "email",
  uri: "url",
  url: "url",
  date: "date",
  "date-time": "date",
};
// A person may be named by an e-mail address (a user, an assignee); a recipient by a phone number too.
const PERSON = /^(?:user|users|member|members|assignee|attendee|attendees|invitee|invitees)$/;
const RECIPIENT = /^(?:to|recipient|recipients|cc|bcc)$/;

export function schemaSlots(schema: unknown): ArgSlot[] {
  if (!isObject(schema) || !isObject(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return Object.entries(schema.properties).map(([name, property]) => {
    const kinds = propertyKinds(name, property);
    return { kinds, required: required.has(name), list: isObject(property) && property.type === "array" };
  });
}

// How far into lists of objects the kinds are read ("files": [{ path }] is one level). An upstream's schema may
// nest without end; nothing deeper says more about what a call takes.
const MAX_ITEM_DEPTH = 2;

function propertyKinds(name: string, property: unknown, depth = 0): Set<ValueKind> {
  const kinds = new Set<ValueKind>();
  const nameWords = words(name);
  for (const [kind, pattern] of KIND_NAMES) if (nameWords.some((word) => pattern.test(word))) kinds.add(kind);
  if (isObject(property)) {
    const description = typeof property.description === "string" ? property.description : "";
    for (const [kind, pattern] of KIND_DESCRIPTIONS) if (pattern.test(description)) kinds.add(kind);
    const format = typeof property.format === "string" ? FORMAT_KINDS[property.format] : undefined;
    if (format) kinds.add(format);
    // A list of objects takes what its items' properties take ("files": [{ path, content }] takes paths).
    const items = property.items;
    if (isObject(items) && isObject(items.properties) && depth < MAX_ITEM_DEPTH) {
      for (const [itemName, itemProperty] of Object.entries(items.properties)) {
        for (const kind of propertyKinds(itemName, itemProperty, depth + 1)) if (kind !== "text") kinds.add(kind);
      }
    }
  }
  // A person or recipient when nothing else says what it takes ("to", not "to_date").
  if (kinds.size === 0 && nameWords.some((word) => RECIPIENT.test(word))) kinds.add("email").add("phone");
  if (kinds.size === 0 && nameWords.some((word) => PERSON.test(word))) kinds.add("email");
  return kinds;
}

// ---- Fit ----

/** Kinds the agent can find or work out itself when the query does not give them. */
const INFERRED: ReadonlySet<ValueKind> = new Set(["id", "date"]);

/**
 * From -1 to 1, the mean over what the query gives and what the tool requires: each value of the query that some
 * property takes counts 1 for the tool (a query's several values in one scalar property, ½); each required
 * property of a known kind that the query does not give, -1 (a comment to write when the query writes none).
 * A required id or date the query lacks counts for nothing: the agent finds ids by name ("the Onboarding page")
 * and works out dates ("a week after signing up"). 0 when the query gives nothing and the tool requires nothing
 * known.
 */
export function argumentFit(values: QueryValues, slots: readonly ArgSlot[]): number {
  let fit = 0;
  let counted = 0;
  for (const [kind, { many }] of values) {
    counted++;
    const takers = slots.filter((slot) => slot.kinds.has(kind));
    if (takers.length > 0) fit += many && !takers.some((slot) => slot.list) ? 0.5 : 1;
  }
  for (const slot of slots) {
    if (!slot.required || [...slot.kinds].every((kind) => INFERRED.has(kind))) continue;
    if ([...slot.kinds].some((kind) => values.has(kind))) continue;
    counted++;
    fit -= 1;
  }
  return counted === 0 ? 0 : fit / counted;
}
