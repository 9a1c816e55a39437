/** Small Foundry-side helpers: the current user, ladder names, localized errors (dice: dice.ts). */
import { isRulesError, STANDARD_RUNGS } from "../rules";
import type { UserRef } from "../system/permissions";
import { errorText } from "../system/error-text";
import type { SystemI18n } from "../system/i18n";

export function userRef(user: { id: string | null; isGM: boolean } | null = game.user ?? null): UserRef {
  return { id: String(user?.id ?? ""), isGM: user?.isGM === true };
}

/**
 * The server's clock as this client knows it (v13 GameTime#serverTime: the last synchronisation
 * plus the time since), so two clients compare times; this client's clock where it is missing.
 */
export function serverNow(): number {
  const t = (game as unknown as { time?: { serverTime?: unknown } }).time?.serverTime;
  return typeof t === "number" && Number.isFinite(t) ? t : Date.now();
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

/**
 * A RulesError (or a refused relay) as a notification in plain words (src/system/error-text.ts),
 * naming `actorName` (the actor acted on) where there is one. Anything else is a bug: logged,
 * and the user told that nothing changed.
 */
export function reportError(e: unknown, actorName?: string): void {
  const err = e as { key?: unknown } | null;
  const keyed = isRulesError(e) || (typeof err?.key === "string" && game.i18n!.has(err.key));
  if (!keyed) console.error(e);
  const text = errorText(e, game.i18n as unknown as SystemI18n, actorName);
  if (keyed) ui.notifications!.warn(text);
  else ui.notifications!.error(text);
}
