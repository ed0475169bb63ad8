import type { Locator } from "./fixtures";

/** Relative luminance (0 black … 1 white) of an element's computed colour, through a canvas so any CSS colour works. */
export async function luminanceOf(el: Locator, property: "backgroundColor" | "color"): Promise<number> {
  return el.first().evaluate((node, prop) => {
    const ctx = document.createElement("canvas").getContext("2d")!;
    ctx.fillStyle = getComputedStyle(node)[prop];
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b] = [...ctx.getImageData(0, 0, 1, 1).data].map((v) => {
      const c = v / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  }, property);
}
