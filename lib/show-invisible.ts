// Text from an upstream shown to an admin: characters a browser would not draw (or would draw reordered) are
// written as <U+XXXX>, so what the console shows is what the model reads.

/** Tag block, zero-width and joiners, bidi controls, BOM, soft hyphen, variation selectors, other format/controls. */
/* eslint-disable no-control-regex, no-misleading-character-class -- matching these characters is the point */
const INVISIBLE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]|\udb40[\udc00-\udc7f]|\udb40[\udd00-\uddef]/g;
/* eslint-enable no-control-regex, no-misleading-character-class */

export function codePointLabel(ch: string): string {
  return `<U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}>`;
}

export function showInvisible(text: string): string {
  return text.replace(INVISIBLE, codePointLabel);
}

const MAX_SPAN = 200;

/** The span of `text` from `start` to `end`, made visible and cut to MAX_SPAN characters (an ellipsis marks the cut). */
export function safeSpan(text: string, start = 0, end = text.length): string {
  const shown = showInvisible(text.slice(start, end));
  return shown.length > MAX_SPAN ? `${shown.slice(0, MAX_SPAN - 1)}…` : shown;
}
