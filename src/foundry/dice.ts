/**
 * Foundry's dice for the system's one roll path (src/system/rolling.ts): every die is a `Roll`
 * evaluated on the clicking user's client, so Dice So Nice animates it, roll modes apply and
 * other modules find it in `message.rolls`. The faces go to the pure rules core.
 */
import type { Roller } from "../system/rolling";
import { rollNoteHtml } from "../system/card";
import { generation, type V14ChatMessageStatics } from "./v14";

type RollLike = { dice: { results: { result: number; active?: boolean }[] }[]; evaluate(): Promise<unknown> };

/** A formula rolled as a Foundry Roll (`4dF` is core's FateDie; `2d20`, `3d6`, `1dF` core dice). */
export const foundryRoller: Roller<Roll> = async (formula) => {
  const roll = new Roll(formula) as unknown as RollLike;
  await roll.evaluate();
  const faces = roll.dice.flatMap((d) => d.results.filter((r) => r.active !== false).map((r) => r.result));
  return { formula, faces, roll: roll as unknown as Roll };
};

/**
 * Message data with this user's roll mode applied: v13 `ChatMessage.applyRollMode(data,
 * core.rollMode)`; v14 `ChatMessage.applyMode(data, core.messageMode)` (FOUNDRY-V13.md "v14").
 * The mode shapes `whisper`/`blind`; a `rollMode` key in the data would do nothing.
 */
export function withRollMode<T extends Record<string, unknown>>(data: T): T {
  const CM = ChatMessage as unknown as { applyRollMode(d: object, m: string): void } & V14ChatMessageStatics;
  const settings = game.settings as unknown as { get(ns: string, key: string): unknown };
  if (generation() >= 14 && typeof CM.applyMode === "function")
    CM.applyMode(data, String(settings.get("core", "messageMode")));
  else CM.applyRollMode(data, String(settings.get("core", "rollMode")));
  return data;
}

/** Posts a message with its rolls attached, in this user's roll mode. */
export async function postWithRolls(data: Record<string, unknown>, rolls: readonly Roll[]): Promise<unknown> {
  return ChatMessage.create(withRollMode({ ...data, rolls: [...rolls] }) as never);
}

/**
 * Rolls added to an existing card (the defence roll): attached to the message and shown by Dice So
 * Nice, whose `showForRoll` is its documented API for rolls that are not a new message.
 * `everyone: false` animates it for this user only (the GM's Situational roll, Fudge §4.55 "behind a GM screen").
 */
export async function showRolls(rolls: readonly Roll[], everyone = true): Promise<void> {
  const dsn = (game as unknown as { dice3d?: { showForRoll(r: unknown, u: unknown, sync: boolean): Promise<unknown> } })
    .dice3d;
  if (dsn) for (const r of rolls) await dsn.showForRoll(r, game.user, everyone);
}

/**
 * A short roll card for the rolls that change a track or a state without an attack card
 * (healing, Volt recovery, Guts, Near Death): who, what, the outcome lines, the recorded faces
 * (flags `fudge-wounds.dice`) and the Rolls themselves.
 */
export async function postRollNote(
  actor: Actor.Implementation,
  titleKey: string,
  lines: readonly string[],
  rolled: readonly { formula: string; faces: number[]; rolls: Roll[] }[],
): Promise<unknown> {
  const esc = (s: unknown) => foundry.utils.escapeHTML(String(s ?? ""));
  const content = rollNoteHtml(actor.name ?? "", game.i18n!.localize(titleKey), lines, esc);
  const dice = rolled.map((r) => ({ formula: r.formula, faces: [...r.faces] }));
  return postWithRolls(
    { content, speaker: ChatMessage.getSpeaker({ actor }), flags: { "fudge-wounds": { dice, titleKey } } },
    rolled.flatMap((r) => r.rolls),
  );
}
