/** Small Foundry-side helpers: the current user, ladder names, localized errors (dice: dice.ts). */
import { isRulesError } from "../rules/errors";
import { STANDARD_RUNGS } from "../rules/ladder";
import type { UserRef } from "../system/actions";

export function userRef(user: { id: string | null; isGM: boolean } | null = game.user ?? null): UserRef {
  return { id: String(user?.id ?? ""), isGM: user?.isGM === true };
}

/** Localized ladder rung names (FUDGE.Ladder.<id>), for the sheets' context builders. */
export function ladderNames(): Partial<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const r of STANDARD_RUNGS) {
    const k = `FUDGE.Ladder.${r.id}`;
    if (game.i18n!.has(k)) out[r.id] = game.i18n!.localize(k);
  }
  return out;
}

/** "system.attributes.strength" → "attributes.strength"; anything else → null. */
export function systemPath(name: string): string | null {
  return name.startsWith("system.") && name.length > 7 ? name.slice(7) : null;
}

/** A RulesError (or a refused relay) as a localized notification. */
export function reportError(e: unknown): void {
  if (isRulesError(e)) {
    const params = Object.fromEntries(Object.entries(e.params).map(([k, v]) => [k, String(v)]));
    ui.notifications!.warn(game.i18n!.has(e.key) ? game.i18n!.format(e.key, params) : e.message);
    return;
  }
  const err = e as { key?: string; message?: string };
  if (typeof err?.key === "string" && game.i18n!.has(err.key)) ui.notifications!.warn(game.i18n!.localize(err.key));
  else {
    console.error(e);
    ui.notifications!.error(String(err?.message ?? e));
  }
}
