// Near-duplicates in one answer, told apart in a line each: tools about the same object (`get_issue`,
// `add_issue_comment`) or of the same name on other servers (GitHub's and GitLab's `create_issue`). The note
// names what only this tool has: its other name words, or its server. Only close contenders are noted (the
// caller passes the answers that score near the best), so a long answer does not grow a note per line.
export type Distinguishable = {
  server: string;
  tool: string;
  nameTerms: readonly string[];
  nameWords: readonly string[];
  objectTerms: readonly string[];
};

export function distinctionNotes(hits: readonly Distinguishable[]): Array<string | undefined> {
  return hits.map((hit, i) => {
    const other = hits.find((candidate, j) => j !== i && nearDuplicates(hit, candidate));
    if (!other) return undefined;
    const theirs = new Set(other.nameTerms);
    const own = [...new Set(hit.nameWords.filter((_, k) => !theirs.has(hit.nameTerms[k]!)))].join(" ");
    if (hit.server !== other.server) {
      const them = other.tool === hit.tool ? other.server : `${other.tool} on ${other.server}`;
      return `on ${hit.server}${own ? `, ${own}` : ""}, not ${them}`;
    }
    return own ? `${own}, not ${other.tool}` : undefined;
  });
}

function nearDuplicates(a: Distinguishable, b: Distinguishable): boolean {
  if (a.objectTerms.length === 0 || b.objectTerms.length === 0) return false;
  const inB = (term: string) => b.objectTerms.includes(term);
  const inA = (term: string) => a.objectTerms.includes(term);
  return a.objectTerms.every(inB) || b.objectTerms.every(inA);
}
