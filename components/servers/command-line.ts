// What an admin typed into the stdio form as a command line. People paste a whole line
// (`npx -y @modelcontextprotocol/server-everything`) into the Command field as often as they split it into
// command and arguments, so both are read the same way before asking whether it is a package.
import { recognizePackageCommand, type RecognizedPackage } from "@/lib/package-command";
import { parseLines } from "./key-value-lines";

/** Splits a command line into words the way a POSIX shell would for plain words and '…' / "…" quotes. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? "";
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"' && i + 1 < line.length) word += line[++i] ?? "";
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= "";
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "\\" && i + 1 < line.length) {
      word = (word ?? "") + (line[++i] ?? "");
    } else {
      word = (word ?? "") + c;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

export type { RecognizedPackage };

/**
 * The package a stdio form's command field (possibly a whole command line) and argument lines run, or null.
 * A command field holding one word with spaces in its path is not split: only an unquoted line is.
 */
export function recognizeStdioForm(commandField: string, argLines: string): RecognizedPackage | null {
  const [command, ...inline] = splitCommandLine(commandField.trim());
  if (!command) return null;
  return recognizePackageCommand(command, [...inline, ...parseLines(argLines)]);
}
