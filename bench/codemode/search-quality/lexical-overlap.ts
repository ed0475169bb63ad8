// Whether a query shares a content word with a tool's name, title or description: the dataset's `lexical`
// flag. Deliberately generous towards "shares" (identifiers split, light suffix stripping, only function
// words ignored) so that a query marked non-lexical really has no word a plain keyword index could match.
const FUNCTION_WORDS = new Set(
  (
    "a an and any are as at be been but by can could did do does for from had has have he her his how i if in " +
    "into is it its it's just me my no not of on once one or our out over s she so some such than that the their " +
    "them then there these they this those to too up us was we were what when where which who whom why will " +
    "with would you your yours i'm we're i've i'll let also only all via"
  ).split(" "),
);

/** Content words of text or identifiers, lower-cased and lightly stemmed. */
export function contentWords(text: string): Set<string> {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}']+/u)
    .map((word) => word.replace(/^'+|'+$/g, "").replace(/'s$/, ""))
    .filter((word) => word.length > 0 && !FUNCTION_WORDS.has(word))
    .map(stem);
  return new Set(words.filter((word) => word.length > 0));
}

function stem(word: string): string {
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith("ied")) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith("ed")) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

/** Words of an identifier: `maps_geocode`, `API-get-user`, `getUser` (product names in prose stay whole). */
function identifierWords(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_\-.]+/g, " ");
}

export function sharesWord(query: string, tool: { name: string; title?: string; description?: string }): boolean {
  const toolWords = contentWords([identifierWords(tool.name), tool.title ?? "", tool.description ?? ""].join(" "));
  for (const word of contentWords(query)) if (toolWords.has(word)) return true;
  return false;
}
