// The ring around the button `?server=<slug>` points at.
export const highlightRing = "ring-2 ring-offset-2 ring-indigo-500";
