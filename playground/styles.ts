/**
 * The system's real CSS, loaded as Foundry loads it: the files system.json lists under
 * `styles`, in that order, each in its cascade layer (`layer`) when one is given. Vite inlines
 * the files' own @imports. Files under styles/ that system.json does not list are not loaded,
 * as in Foundry.
 */
import manifest from "../system.json";

const css = import.meta.glob<string>("../styles/**/*.css", { eager: true, query: "?inline", import: "default" });

type StyleEntry = string | { src: string; layer?: string };

export const loadedStyles: string[] = [];
export const missingStyles: string[] = [];

export function installStyles(doc: Document = document): void {
  const entries = ((manifest as { styles?: StyleEntry[] }).styles ?? []).map((e) =>
    typeof e === "string" ? { src: e } : e,
  );
  for (const e of entries) {
    const text = css[`../${e.src}`];
    if (text === undefined) {
      missingStyles.push(e.src);
      continue;
    }
    const el = doc.createElement("style");
    el.dataset.src = e.src;
    el.textContent = e.layer ? `@layer ${e.layer} {\n${text}\n}` : text;
    doc.head.append(el);
    loadedStyles.push(e.src);
  }
}
