/**
 * Where Foundry v14 names a newer path (FOUNDRY-V13.md "v14"), take it when
 * `game.release.generation >= 14`, and keep the v13 path otherwise.
 */
import { forCore, type UpdateOperators } from "../system/updates";

type Operator = (value?: unknown) => unknown;

/*
 * The v14 names this system uses, which the v13 type definitions (fvtt-types) do not have.
 * Declared here, and used only where `generation() >= 14`.
 */

/** v14's message modes, the values of the `core.messageMode` setting (v13: core.rollMode's publicroll…). */
export type MessageMode = "public" | "gm" | "blind" | "self" | "ic";

/** v14's `ChatMessage.applyMode(chatData, mode)` (v13: `applyRollMode`). */
export interface V14ChatMessageStatics {
  applyMode?(chatData: object, mode: MessageMode | string): object;
}

/** A v14 context-menu entry (v13: `{name, icon, condition(li), callback(li)}`). */
export interface V14ContextMenuEntry {
  label: string;
  icon: string;
  visible?: (li: HTMLElement) => boolean;
  onClick?: (event: Event, li: HTMLElement) => unknown;
}

export const generation = (): number =>
  Number((game as unknown as { release?: { generation?: number } }).release?.generation ?? 13);

/** v14's ForcedReplacement operator (`_replace(value)`): replaces a value whole in an update; null before v14. */
function forcedReplacement(): ((value: unknown) => unknown) | null {
  const op = (globalThis as { _replace?: Operator })._replace;
  return generation() >= 14 && typeof op === "function" ? (v) => op(v) : null;
}

/** v14's ForcedDeletion operator (`_del`) as an update value; null before v14 (use `-=key: null`). */
function forcedDeletion(): unknown {
  const op = (globalThis as { _del?: unknown })._del;
  return generation() >= 14 && op !== undefined ? op : null;
}

/** v14's update operators, or null before v14 (the legacy `-=` / `==` keys are v13's). */
export function updateOperators(): UpdateOperators | null {
  const del = forcedDeletion();
  const replace = forcedReplacement();
  return del !== null && replace ? { del, replace } : null;
}

/** An update for the running core: every document update the system builds goes through this (src/system/updates.ts forCore). */
export const toCore = <T>(update: T): T => forCore(update, updateOperators());
