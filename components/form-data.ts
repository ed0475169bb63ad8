/** A text field of a submitted form, trimmed; "" when absent or when the entry is a file. */
export function formText(form: FormData, name: string, { trim = true }: { trim?: boolean } = {}): string {
  const v = form.get(name);
  if (typeof v !== "string") return "";
  return trim ? v.trim() : v;
}
