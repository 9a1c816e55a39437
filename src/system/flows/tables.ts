/**
 * The two action tables: every `data-action` of the system's card and sheet templates (and the
 * Token HUD's wound buttons) names one entry, which runs its flow. Foundry (the message class, the
 * actor sheets, the HUD) and the playground dispatch through these same tables; an action with no
 * entry fails loudly in both (tests/system/action-tables.test.ts lists every `data-action`).
 */
import { createItem, needItem, toggleEquipped } from "./items";
import {
  editCustomLevels,
  kill,
  reduceWoundWithFudgePoint,
  refundWoundFudgePoint,
  resetTrack,
  toggleBox,
  undoKill,
} from "./track";
import type { HostPort } from "./port";
import { loadCardPresets } from "../presets";

/** The flows of a click or a later event, a chunk of their own (./clicks.ts): loaded by the first. */
type Clicks = typeof import("./clicks");
let clicks: Clicks | null = null;
export const loadClicks = async (): Promise<Clicks> => (clicks ??= await import("./clicks"));
/** The flows of ./clicks.ts once loaded (null before): a hook that must act in its own turn calls them at once. */
export const loadedClicks = (): Clicks | null => clicks;
/** An entry that runs a flow of ./clicks.ts, loading it first. */
const lazy =
  (run: (f: Clicks, port: HostPort, click: Click) => Promise<void>): ActionEntry =>
  async (port, click) =>
    run(await loadClicks(), port, click);

/** A click as the flows read it: no DOM, only what the button says. */
export interface Click {
  action: string;
  /** The document the button sits on: the sheet's actor reference, or the card's message id. */
  doc: string;
  /** The `data-*` of the clicked element and of what it sits in (its card target, its item row); the element's own win. */
  data: Readonly<Record<string, string | undefined>>;
  /** Shift held: Attack, Defend and trait rolls skip their dialog. */
  shiftKey?: boolean;
  /** The GM's pick in the clicked card target's judgement picker. */
  gmLevel?: string;
}

export type ActionEntry = (port: HostPort, click: Click) => Promise<void>;

/** What a box click asks (data-mark: "true" marks, "false" clears; data-level: the HUD's row), writes.ts toggleBox. */
function boxIntent(c: Click): { mark?: boolean; level?: string } {
  const mark = c.data.mark === "true" ? true : c.data.mark === "false" ? false : undefined;
  if (mark === undefined) return {};
  return c.data.level ? { mark, level: c.data.level } : { mark };
}

/** The first of these data attributes the button has. */
const pick = (c: Click, ...names: string[]): string | undefined => {
  for (const n of names) if (c.data[n] !== undefined && c.data[n] !== "") return c.data[n];
  return undefined;
};

function need(c: Click, what: string, ...names: string[]): string {
  const v = pick(c, ...names);
  if (v === undefined) throw new Error(`the ${c.action} button has no data-${what}`);
  return v;
}

/** The card target a card button acts on: its own data-target-id / data-actor-id, else the card's target at its index. */
function cardTarget(port: HostPort, c: Click): string {
  const named = pick(c, "targetId", "actorId");
  if (named) return named;
  const stored = port.card(c.doc);
  const targets = (stored?.system as { targets?: { actorId?: unknown }[] } | undefined)?.targets;
  const ref = Array.isArray(targets) ? targets[Number(c.data.targetIndex)]?.actorId : undefined;
  if (typeof ref !== "string") throw new Error(`the ${c.action} button names no card target`);
  return ref;
}

/** The attack card's buttons (templates/chat/attack-card.hbs). */
export const CARD_ACTIONS: Readonly<Record<string, ActionEntry>> = {
  defend: lazy((f, p, c) => f.clickCardAction(p, c.doc, "defend", cardTarget(p, c), { fastForward: c.shiftKey })),
  apply: lazy((f, p, c) => f.clickCardAction(p, c.doc, "apply", cardTarget(p, c))),
  applyFudgePoint: lazy((f, p, c) => f.clickCardAction(p, c.doc, "apply", cardTarget(p, c), { spendFudgePoint: true })),
  undo: lazy((f, p, c) => f.clickCardAction(p, c.doc, "undo", cardTarget(p, c), { force: c.data.force === "true" })),
  applyJudgement: lazy((f, p, c) => f.judge(p, c.doc, cardTarget(p, c), c.gmLevel ?? "")),
  applyAll: lazy((f, p, c) => f.applyToAll(p, c.doc)),
  applySelected: lazy((f, p, c) => f.applyToSelected(p, c.doc)),
  gutsFriends: lazy((f, p, c) => f.gutsForFriends(p, c.doc)),
  // The trait-roll card's button: the opponent's side of an opposed roll (Fudge §3.5).
  rollOpposed: lazy((f, p, c) => f.rollOpposed(p, c.doc)),
  // The trait-roll card's Fudge Point (Fudge §1.36): one level up or down, and its Undo.
  spendRollFudgePoint: lazy((f, p, c) => f.spendRollFudgePoint(p, c.doc, c.data.direction === "-1" ? -1 : 1)),
  undoRollFudgePoint: lazy((f, p, c) => f.undoRollFudgePoint(p, c.doc)),
  // Fudge §1.36: an automatic success on a failed unopposed roll, where the world allows it after the dice.
  spendRollAutoSuccess: lazy((f, p, c) => f.spendRollAutoSuccess(p, c.doc)),
  // The attack card's Fudge Point (Fudge §1.36) on the attacker's or a defender's roll, and its Undo.
  spendAttackFudgePoint: lazy((f, p, c) =>
    f.spendAttackFudgePoint(
      p,
      c.doc,
      f.sideOf(c.data.side),
      fudgePointTarget(p, c),
      c.data.direction === "-1" ? -1 : 1,
    ),
  ),
  undoAttackFudgePoint: lazy((f, p, c) =>
    f.undoAttackFudgePoint(p, c.doc, f.sideOf(c.data.side), fudgePointTarget(p, c)),
  ),
};

/** The card target of a defender's Fudge Point button; "" for the attacker's (card-wide). */
const fudgePointTarget = (p: HostPort, c: Click): string => (c.data.side === "defender" ? cardTarget(p, c) : "");

/** The actor sheets' buttons (templates/actor, templates/parts) and the Token HUD's wound buttons. */
export const SHEET_ACTIONS: Readonly<Record<string, ActionEntry>> = {
  toggleWoundBox: (p, c) => toggleBox(p, c.doc, need(c, "ref", "ref", "box"), boxIntent(c)),
  rollTrait: lazy((f, p, c) =>
    f.rollTrait(p, c.doc, need(c, "trait", "trait", "traitKey", "key"), { fastForward: c.shiftKey }),
  ),
  heal: lazy((f, p, c) => f.heal(p, c.doc, need(c, "heal", "heal", "type"))),
  recover: lazy((f, p, c) => f.recover(p, c.doc)),
  resetTrack: (p, c) => resetTrack(p, c.doc),
  killActor: (p, c) => kill(p, c.doc),
  undoKill: (p, c) => undoKill(p, c.doc),
  addCustomLevel: (p, c) => editCustomLevels(p, c.doc, "add", -1),
  removeCustomLevel: (p, c) => editCustomLevels(p, c.doc, "remove", Number(c.data.index ?? -1)),
  attack: lazy((f, p, c) => f.attack(p, c.doc, [pick(c, "itemId", "weaponId") ?? null], { fastForward: c.shiftKey })),
  attackAll: lazy((f, p, c) =>
    f.attackWithAll(p, c.doc, c.data.kind === "ranged" ? "ranged" : "melee", { fastForward: c.shiftKey }),
  ),
  gutsCheck: lazy((f, p, c) => f.gutsCheck(p, c.doc)),
  createItem: (p, c) => createItem(p, c.doc, pick(c, "type") ?? "skill"),
  editItem: (p, c) => p.items.open(c.doc, needItem(pick(c, "itemId"))),
  deleteItem: (p, c) => p.items.remove(c.doc, needItem(pick(c, "itemId"))),
  toggleEquipped: (p, c) => toggleEquipped(p, c.doc, needItem(pick(c, "itemId"))),
  editImage: (p, c) => p.items.editImage(c.doc, pick(c, "edit") ?? "img"),
  awardExperience: lazy((f, p, c) => f.awardExperience(p, c.doc)),
  spendExperience: lazy((f, p, c) => f.spendExperience(p, c.doc)),
  undoAdvance: lazy((f, p, c) => f.undoAdvance(p, c.doc, need(c, "entry", "entry"))),
  // Fudge §1.36: a Fudge Point makes a wound one level less, and its Undo.
  reduceWound: (p, c) => reduceWoundWithFudgePoint(p, c.doc, need(c, "level", "level")),
  refundWound: (p, c) => refundWoundFudgePoint(p, c.doc, need(c, "spend", "spend")),
};

/**
 * `data-action`s of the templates that are not this system's clicks: the host's own (Foundry's
 * ApplicationV2 tab switch) and the rules menu's table rows (its form app, src/system/settings-menu.ts).
 */
export const HOST_ACTIONS: Readonly<Record<string, string>> = {
  tab: "the host's tab switch (ApplicationV2 changeTab)",
  addRuleRow: "the rules menu adds a table row (settings-menu.ts addTableRow)",
  removeRuleRow: "the rules menu removes a table row (settings-menu.ts removeTableRow)",
};

function entry(table: Readonly<Record<string, ActionEntry>>, kind: string, action: string): ActionEntry {
  const f = Object.prototype.hasOwnProperty.call(table, action) ? table[action] : undefined;
  if (!f) throw new Error(`unknown ${kind} action "${action}": no flow in src/system/flows/tables.ts`);
  return f;
}

/** Runs a card button's click (the pipelines of the card's presets loaded first); an action with no entry rejects. */
export async function runCardAction(port: HostPort, click: Click): Promise<void> {
  const run = entry(CARD_ACTIONS, "card", click.action);
  await loadCardPresets(port.card(click.doc)?.system);
  await run(port, click);
}

/** Runs a sheet (or Token HUD) button's click; an action with no entry rejects. */
export async function runSheetAction(port: HostPort, click: Click): Promise<void> {
  await entry(SHEET_ACTIONS, "sheet", click.action)(port, click);
}

/**
 * The click a button makes, read from the DOM the same way by both hosts: the button's `data-*`
 * over those of its card target section and its item row; the GM's pick in its target's picker.
 */
export function clickOf(el: HTMLElement, doc: string, shiftKey = false): Click {
  const section = el.closest<HTMLElement>(".fudge-target[data-target-index]");
  const holder = el.closest<HTMLElement>("[data-target-id],[data-actor-id]");
  const item = el.closest<HTMLElement>("[data-item-id]");
  const data: Record<string, string | undefined> = {
    ...(section?.dataset ?? {}),
    ...(item?.dataset ?? {}),
    ...(holder?.dataset ?? {}),
    ...el.dataset,
  };
  const gmLevel = section?.querySelector<HTMLSelectElement>('select[name="gmLevel"]')?.value;
  return { action: el.dataset.action ?? "", doc, data, shiftKey, ...(gmLevel !== undefined ? { gmLevel } : {}) };
}
