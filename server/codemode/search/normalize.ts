// One word → its index term: function words dropped, British spellings read as American (spelling.ts), the rest
// stemmed (Porter), so "orders", "ordered" and "ordering" meet at "order", and "colour" and "color" at "color".
// Short words and names are not stemmed: Porter makes "news" "new" (the verb of creating), "gps" "gp" and
// "postgres" "postgr".
import { stemmer } from "stemmer";
import { productName } from "./product-names";
import { americanSpelling } from "./spelling";

// Function words and the chat around a request ("could you please show me what's …"): no intent in them.
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a about above after again all also am an and any are as at be been being both but by can could did do does " +
    "doing done dont for from had has have having he her here hers him his how however i if im in into is it its " +
    "itself just let lets me might more most much must my myself need needs no nor not of off on once only or " +
    "other our ours out over own please same shall she should so some somebody someone something such than everything anything nothing everyone anyone that " +
    "thats the their theirs them then there these they this those thru to too up us very via want wanna was we " +
    "were what whats when where which while who whom whose why will with within without would you your yours " +
    "yourself id like ok okay hey hi thanks thank kindly using use many each every few several " +
    "cant wont isnt arent doesnt didnt wasnt werent hasnt havent hadnt shouldnt couldnt wouldnt youre theyre weve ive"
  ).split(" "),
);

// Words Porter would bend into another word's stem.
const KEEP = new Set(
  "news status series species analytics canvas alias bus gas yes dns aws sms gps https http ios os sas saas kubernetes jenkins redis postgres data media".split(
    " ",
  ),
);

// Plurals of two-letter domain abbreviations ("PRs", "IPs", "DBs"); other short words stay as written.
const ABBREVIATIONS = new Set("pr mr ip db vm dm ci qa ui ad kb pm sku url api".split(" "));

export function termOf(word: string): string | null {
  const lower = word.toLowerCase();
  if (STOP_WORDS.has(lower) || lower.length < 2) return null;
  if (KEEP.has(lower) || productName(lower) || !/^[a-z]+$/.test(lower)) return lower;
  if (lower.endsWith("s") && ABBREVIATIONS.has(lower.slice(0, -1))) return lower.slice(0, -1);
  if (lower.length <= 3) return lower;
  return stemmer(americanSpelling(lower));
}
