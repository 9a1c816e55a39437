/**
 * Sample documents from the pack sources in git (packs/src/<pack>/*.json), the same files the
 * build compiles into Foundry compendiums. Actors (character, npc, miniature) become the
 * playground's documents; everything is deep-copied, never edited in place.
 */
import type { PlainDoc } from "./store";

const files = import.meta.glob<unknown>("../packs/src/**/*.json", { eager: true, import: "default" });

export const ACTOR_TYPES = ["character", "npc", "miniature"];

export interface PackDoc {
  file: string;
  pack: string;
  doc: PlainDoc;
}

function packOf(file: string): string {
  const m = /packs\/src\/([^/]+)\//.exec(file);
  return m ? m[1] : "";
}

export const packDocs: PackDoc[] = Object.entries(files)
  .flatMap(([file, value]) =>
    (Array.isArray(value) ? value : [value]).map((doc) => ({ file, pack: packOf(file), doc: doc as PlainDoc })),
  )
  .filter((d) => d.doc && typeof d.doc === "object" && typeof d.doc.type === "string")
  .sort((a, b) => a.file.localeCompare(b.file));

/** Actor documents of the packs (folders and journals are skipped). */
export function sampleActors(): PlainDoc[] {
  return packDocs
    .filter(
      (d) => ACTOR_TYPES.includes(d.doc.type) && (typeof d.doc._key !== "string" || d.doc._key.startsWith("!actors!")),
    )
    .map((d) => {
      const a = structuredClone(d.doc);
      a.items = Array.isArray(a.items) ? a.items : [];
      a.flags = { ...(a.flags ?? {}), playground: { pack: d.pack, file: d.file.replace(/^\.\.\//, "") } };
      return a;
    });
}
