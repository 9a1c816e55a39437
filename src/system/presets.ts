/**
 * The attack pipelines a client reads, loaded first (src/rules/presets.ts loads each preset's on
 * demand): the world's preset, and each preset an attack card was rolled under — a card of an
 * earlier preset stays in the chat log after the GM changes presets (docs/foundry.md "What loads
 * when").
 */
import { loadPreset, presetKnown, presetLoaded } from "../rules";

/** The known presets an attack card's stored data names, not loaded yet (a claim: only known ids count, each once). */
export function cardPresets(system: unknown): string[] {
  const out = new Set<string>();
  const add = (p: unknown) => {
    if (presetKnown(p) && !presetLoaded(p)) out.add(p as string);
  };
  const card = system as { preset?: unknown; targets?: unknown } | null | undefined;
  add(card?.preset);
  if (Array.isArray(card?.targets))
    for (const t of card.targets) add((t as { request?: { preset?: unknown } } | null)?.request?.preset);
  return [...out];
}

/** Loads the pipelines of the presets an attack card names (nothing for another card). */
export async function loadCardPresets(system: unknown): Promise<void> {
  await Promise.all(cardPresets(system).map((p) => loadPreset(p)));
}
