/**
 * The only file of the playground that knows the system's UI API: it calls the UI layer's
 * context builders (src/system/sheet.ts, chat card builder) and renders the system's templates
 * with them, and maps each `data-action` to the system's pure action (src/system/actions/),
 * merging the returned plain updates into the stored documents as Foundry's `update` would.
 * The only things decided here are host things: which dice to roll (the rules name the slots),
 * who is targeted (toolbar checkboxes instead of tokens) and the one GM user.
 */
import type { PlaygroundDice } from "./dice";
import { newId, type ChatDoc, type PlainDoc, type PlaygroundState, type Store } from "./store";
import { i18n } from "./i18n";
import { templateExists, foundryPath, missingPartials, renderTemplate, setLadder } from "./templates";
import { TEMPLATES } from "../src/system/handlebars";
import { actorSheetContext, itemSheetContext } from "../src/system/sheet";
import { healFeedback, ladderOf } from "../src/system/view";
import { errorText as userErrorText } from "../src/system/error-text";
import { attackCardContext, rollCardContext, type CardViewer } from "../src/system/card";
import { attackDialogContext, readRollOptions, readSituation, rollDialogContext } from "../src/system/attack-dialog";
import type { Situation } from "../src/system/combatant";
import {
  defaultGutsChoice,
  gutsDialogContext,
  gutsNoteLines,
  gutsTriggerOf,
  readGutsChoice,
  type GutsDialogChoice,
} from "../src/system/guts-dialog";
import {
  DRY_HEAL_DICE,
  HEAL_INPUTS,
  type HealDice,
  healDialogContext,
  healNoteLine,
  healingRequest,
  healsWithMedicalRoll,
  injuryRecoveryNoteLines,
  readHealInputs,
} from "../src/system/heal";
import { combatEndHealing } from "../src/system/combat";
import { battleEndNote, type BattleEndEntry } from "../src/system/battle-end";
import { PRESET_GROUPS, applyRulesForm, rulesMenuContext } from "../src/system/settings-menu";
export { addTableRow, removeTableRow } from "../src/system/settings-menu";
import {
  ITEM_DEFAULTS,
  worldRulesFrom,
  type ActorDoc,
  type AttackCardData,
  type ItemDoc,
  type ItemType,
  type WorldRules,
} from "../src/system/data";
import * as actions from "../src/system/actions";
import { attackClippedUpdate, defenceRollUpdate, rollsWhileClipped, traitClippedUpdate } from "../src/system/clipped";
import { defenceFacesOf, rederiveTarget } from "../src/system/integrity";
import { pipelineFor, RulesError, STANDARD_RUNGS } from "../src/rules";
import {
  GUTS_ROLL,
  WILLPOWER_ROLL,
  healRollTitle,
  rngRoller,
  rollAttackSync,
  rollSlotSync,
  traitRollSlot,
} from "../src/system/rolling";

export interface ActionCall {
  action: string;
  target: HTMLElement;
  doc: { kind: "actor" | "message"; id: string };
  event: Event;
  /** Attack: the dialog's choices (absent: the remembered ones, as Shift-click uses). */
  situation?: Situation;
  /** Heal: the healing dialog's numbers. */
  inputs?: Record<string, number>;
  /** Trait roll: the roll dialog's Difficulty and modifier. */
  rollOptions?: { difficulty?: number; modifier?: number };
  /** Miniatures Guts check: the Guts dialog's choice. */
  guts?: GutsDialogChoice;
}

const esc = (s: unknown) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Pieces the playground needs from the other areas that do not exist yet (shown on the page and to tests). */
export const missingPieces: string[] = [
  ...Object.values(TEMPLATES).filter((p) => !templateExists(foundryPath(`../${p}`))),
  ...missingPartials,
];

// ─── World, user, ladder ────────────────────────────────────────────────────────────────

/** The world rules, read once per settings object (the store replaces it when a setting changes). */
const rulesCache = new WeakMap<object, WorldRules>();
export function rulesOf(s: PlaygroundState): WorldRules {
  let rules = rulesCache.get(s.settings);
  if (!rules) rulesCache.set(s.settings, (rules = worldRulesFrom((k) => s.settings[k])));
  const r = rules;
  setLadder(() => ladderOf(r, ladderNames()));
  return rules;
}

function userOf(s: PlaygroundState): actions.UserRef {
  return { id: s.user.id, isGM: s.user.isGM };
}

function ladderNames(): Partial<Record<string, string>> {
  const names: Record<string, string> = {};
  for (const r of STANDARD_RUNGS)
    if (i18n.has(`FUDGE.Ladder.${r.id}`)) names[r.id] = i18n.localize(`FUDGE.Ladder.${r.id}`);
  return names;
}

export function presetLabel(p: string): string {
  const key = `FUDGE.Preset.${p}`;
  return i18n.has(key) ? i18n.localize(key) : p;
}

/** A refused action in plain words (src/system/error-text.ts), naming the actor acted on. */
export function errorText(e: unknown, store?: Store, actorId?: string): string {
  const name = actorId && store ? store.actor(actorId)?.name : undefined;
  return userErrorText(e, i18n, name);
}

function missingPanel(what: string): string {
  return `<div class="pg-missing" data-testid="missing"><p>Not rendered: ${esc(what)} — a piece it needs does not exist yet in this repository.</p><ul>${missingPieces
    .map((m) => `<li><code>${esc(m)}</code></li>`)
    .join("")}</ul></div>`;
}

// ─── Rendering ──────────────────────────────────────────────────────────────────────────

const asActor = (a: PlainDoc) => a as unknown as ActorDoc;

/** Each sheet window's open tab (Foundry keeps it in the application's tabGroups). */
export const activeTabs = new Map<string, string>();

export interface WindowView {
  title: string;
  classes: string[];
  html: string;
}

/** A sheet window: "actorId" (actor sheet) or "actorId/itemId" (item sheet). Null when the document is gone. */
export function renderWindow(key: string, s: PlaygroundState): WindowView | null {
  const [actorId, itemId] = key.split("/");
  const actor = s.actors.find((a) => a._id === actorId);
  if (!actor) return null;
  const rules = rulesOf(s);
  // Foundry v13 ApplicationV2 sheet classes, plus the system's own (from its context).
  const base = ["application", "sheet", "themed", s.theme === "dark" ? "theme-dark" : "theme-light"];
  const names = ladderNames();
  if (itemId) {
    const item = (actor.items ?? []).find((i) => i._id === itemId);
    if (!item) return null;
    const title = `${item.name} (${actor.name})`;
    const path = TEMPLATES[item.type as keyof typeof TEMPLATES];
    if (!path || !templateExists(foundryPath(`../${path}`)))
      return {
        title,
        classes: [...base, "item"],
        html: missingPanel(`the ${item.type} sheet (${path ?? "no template"})`),
      };
    // A weapon picks its skill from its owner's skills (the default stated: the defence default).
    const owner =
      actor.type === "miniature"
        ? undefined
        : {
            skills: (actor.items ?? []).filter((i) => i.type === "skill").map((i) => i.name),
            defaultLevel: Number((actor.system as { defenseDefault?: unknown }).defenseDefault ?? 0),
          };
    const ctx = itemSheetContext(item as unknown as ItemDoc, rules, { editable: true, ladderNames: names, owner });
    return {
      title,
      classes: [...base, "item", ...ctx.cssClass.split(/\s+/).filter(Boolean)],
      html: renderTemplate(path, ctx),
    };
  }
  const path = TEMPLATES[actor.type as keyof typeof TEMPLATES];
  if (!path || !templateExists(foundryPath(`../${path}`)))
    return {
      title: actor.name,
      classes: [...base, "actor"],
      html: missingPanel(`the ${actor.type} sheet (${path ?? "no template"})`),
    };
  const targets = s.targets
    .map((id) => s.actors.find((a) => a._id === id))
    .filter((x): x is PlainDoc => !!x)
    .map(asActor);
  const ctx = actorSheetContext(asActor(actor), rules, {
    editable: true,
    owner: true,
    ladderNames: names,
    targets,
    activeTab: activeTabs.get(key),
    domId: `pg-sheet-${key}`,
    inCombat: s.inCombat === true,
    gm: s.user.isGM,
  });
  return {
    title: actor.name,
    classes: [...base, "actor", ...ctx.cssClass.split(/\s+/).filter(Boolean)],
    html: renderTemplate(path, ctx),
  };
}

export function renderCard(m: ChatDoc, s: PlaygroundState): string {
  const rules = rulesOf(s);
  if (m.type === "attackCard") {
    if (!templateExists(foundryPath(`../${TEMPLATES.attackCard}`))) return missingPanel("the attack card");
    const viewer: CardViewer = {
      user: userOf(s),
      actor: (id) => s.actors.find((a) => a._id === id) as unknown as ActorDoc | undefined,
    };
    return renderTemplate(
      TEMPLATES.attackCard,
      attackCardContext(m as unknown as { _id: string; system: AttackCardData }, rules, viewer),
    );
  }
  if (m.type === "battleEndNote") {
    if (!templateExists(foundryPath(`../${TEMPLATES.battleEnd}`))) return missingPanel("the battle's-end note");
    const context = battleEndNote((m.system as { entries?: BattleEndEntry[] }).entries ?? []);
    return context ? renderTemplate(TEMPLATES.battleEnd, context) : "";
  }
  if (m.type === "rollCard") {
    if (!templateExists(foundryPath(`../${TEMPLATES.rollCard}`))) return missingPanel("the roll card");
    return renderTemplate(TEMPLATES.rollCard, rollCardContext(m.system as unknown as actions.RollCardData, rules));
  }
  return missingPanel(`a ${m.type} card`);
}

// ─── Attack dialog: the system's template, odds from the rules core ─────────────────────

function targetsOf(store: Store, attackerId: string): ActorDoc[] {
  return store.state.targets
    .filter((id) => id !== attackerId)
    .map((id) => store.actor(id))
    .filter((x): x is PlainDoc => !!x)
    .map(asActor);
}

/** The user's last attack choices for the world's preset (Foundry: a user flag). */
export function rememberedSituation(s: PlaygroundState): Situation {
  const rules = rulesOf(s);
  return readSituation(rules.preset, Object.entries(s.attackSituation ?? {}));
}

/** The attack dialog body for an Attack button (weapon by data-item-id, or the Miniatures action's first weapon). */
export function renderAttackDialog(store: Store, actorId: string, el: HTMLElement, situation?: Situation): string {
  const s = store.state;
  const rules = rulesOf(s);
  const actor = store.actor(actorId);
  if (!actor) throw new Error(`no actor ${actorId}`);
  const a = asActor(actor);
  let weaponId = data(el, "itemId", "weaponId") ?? null;
  if (el.dataset.action === "attackAll")
    weaponId = actions.wieldedAttacks(a, data(el, "kind") === "ranged" ? "ranged" : "melee", rules)[0] ?? null;
  const weapon = weaponId
    ? (((a.items ?? []).find((i) => i._id === weaponId) as ItemDoc<"weapon"> | undefined) ?? null)
    : null;
  return renderTemplate(
    TEMPLATES.attackDialog,
    attackDialogContext(a, weapon, targetsOf(store, actorId), rules, situation ?? rememberedSituation(s)),
  );
}

/** The healing dialog for a heal button, or null when the healing kind needs no input. */
/** The automatic-death confirmation (Foundry: the sheet's DialogV2 confirm, the same sentence). */
export function killConfirmText(store: Store, actorId: string): string {
  return i18n.format("FUDGE.Sheet.KillConfirm", { name: store.actor(actorId.split("/")[0])?.name ?? "" });
}

export function renderHealDialog(store: Store, actorId: string, el: HTMLElement): string | null {
  const type = data(el, "heal", "type") ?? "";
  if (!(HEAL_INPUTS[type] ?? []).length) return null;
  const rules = rulesOf(store.state);
  const actor = store.actor(actorId);
  // Refused before the dialog when the heal cannot happen at all (permission; Volt: no Injury to recover from), as in Foundry.
  if (actor)
    actions.healWounds(
      asActor(actor),
      healingRequest(type, asActor(actor), {}, DRY_HEAL_DICE, rules),
      rules,
      userOf(store.state),
    );
  return renderTemplate(TEMPLATES.healDialog, healDialogContext(type, actor?.name ?? "", rules));
}

export function readHealDialog(el: HTMLElement, form: HTMLFormElement): Record<string, number> {
  const entries = (Array.from(form.elements) as HTMLInputElement[])
    .filter((x) => x.name)
    .map((x): [string, unknown] => [x.name, x.value]);
  return readHealInputs(data(el, "heal", "type") ?? "", entries);
}

/** The world rules menu (the system's settings template): the general and the active preset's options. */
export function renderRulesMenu(store: Store): string {
  return renderTemplate(TEMPLATES.rulesMenu, rulesMenuContext(rulesOf(store.state)));
}

/** Saves the rules menu as Foundry's settings menu does (applyRulesForm checks every field). */
export function saveRulesMenu(store: Store, form: HTMLFormElement): void {
  const before = rulesOf(store.state);
  const data: Record<string, unknown> = {};
  for (const [k, v] of new FormData(form).entries()) data[k] = v;
  const after = applyRulesForm(before, data, PRESET_GROUPS[before.preset]);
  store.update((d) => {
    d.settings = { ...d.settings, ...(structuredClone(after) as unknown as Record<string, unknown>) };
    d.preset = after.preset;
  });
}

/** The trait roll dialog for a trait's die button. */
export function renderRollDialog(store: Store, actorId: string, el: HTMLElement): string {
  const key = data(el, "trait", "traitKey", "key") ?? "";
  return renderTemplate(
    TEMPLATES.rollDialog,
    rollDialogContext(store.actor(actorId)?.name ?? "", key, rulesOf(store.state), ladderNames()),
  );
}

/** The Guts check dialog of a miniature (the system's guts-dialog template). */
export function renderGutsDialog(store: Store, actorId: string): string {
  const actor = store.actor(actorId);
  if (!actor) throw new Error(`no actor ${actorId}`);
  return renderTemplate(TEMPLATES.gutsDialog, gutsDialogContext(asActor(actor)));
}

export function readGutsDialog(form: HTMLFormElement): GutsDialogChoice {
  return readGutsChoice(
    (Array.from(form.elements) as HTMLInputElement[])
      .filter((x) => x.name)
      .map((x): [string, unknown] => [x.name, x.type === "checkbox" ? x.checked : x.value]),
  );
}

export function readRollDialog(form: HTMLFormElement): { difficulty?: number; modifier?: number } {
  return readRollOptions(
    (Array.from(form.elements) as HTMLInputElement[])
      .filter((x) => x.name)
      .map((x): [string, unknown] => [x.name, x.value]),
  );
}

export function readDialog(store: Store, form: HTMLFormElement): Situation {
  const rules = rulesOf(store.state);
  const entries: [string, unknown][] = [];
  for (const el of Array.from(form.elements) as HTMLInputElement[]) {
    if (!el.name) continue;
    entries.push([el.name, el.type === "checkbox" ? el.checked : el.value]);
  }
  return readSituation(rules.preset, entries);
}

/** Remembers the dialog's choices for the next attack (and for Shift-click). */
export function rememberSituation(store: Store, situation: Situation): void {
  store.updateDocs({}, (d) => void (d.attackSituation = structuredClone(situation)));
}

// ─── Updates: Foundry's update semantics ─────────────────────────────────────────────────
// Foundry merges an update into the stored document (mergeObject): nested objects merge key by
// key — including inside an ObjectField such as woundTrack.state — so a key missing from the
// update is NOT removed. Arrays and other values replace. "-=key" deletes a key and "==key"
// replaces an object whole (Foundry's deletion / forced-replacement keys). The playground keeps
// exactly these semantics so that an update which would leave stale keys in Foundry does here too.

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function mergeUpdate(target: object, update: object): void {
  const t = target as Record<string, unknown>;
  for (const [k, v] of Object.entries(update)) {
    if (k.startsWith("-=")) delete t[k.slice(2)];
    else if (k.startsWith("==")) t[k.slice(2)] = structuredClone(v);
    else if (isPlainObject(v) && isPlainObject(t[k])) mergeUpdate(t[k] as object, v);
    else t[k] = structuredClone(v);
  }
}

function updateActor(store: Store, id: string, update: object): void {
  store.updateDocs({ actors: [id] }, (d) => {
    const a = d.actors.find((x) => x._id === id);
    if (a) mergeUpdate(a, update);
  });
}

/**
 * The toolbar's End combat (Foundry: the GM ends the combat; src/foundry/combat.ts deleteCombat,
 * with every actor in it): Willpower adjustments that held "until the battle is over" lapse (Fudge
 * §4.52 (4)), one chat note says what changed, then the world's combat-end healing (Scratches, or
 * Volt's Stun after a minute's rest) — in that order, as the GM's client does. Returns the errors
 * of actors it could not change (each is left as it was), as sentences.
 */
export function endCombat(store: Store): string[] {
  const s = store.state;
  const rules = rulesOf(s);
  const user = userOf(s);
  const errors: string[] = [];
  store.updateDocs({}, (d) => void (d.inCombat = false));
  const entries: BattleEndEntry[] = [];
  for (const a of s.actors) {
    try {
      const r = actions.endBattleFor(asActor(a), rules);
      if (!r) continue;
      updateActor(store, a._id, r.update);
      entries.push({ name: a.name, notes: r.notes });
    } catch (e) {
      errors.push(errorText(e, store, a._id));
    }
  }
  if (battleEndNote(entries))
    postMessage(store, "battleEndNote", { entries }, i18n.localize("FUDGE.BattleEnd.Speaker"));
  const type = combatEndHealing(rules);
  if (type)
    for (const a of store.state.actors) {
      try {
        const r = actions.healWounds(asActor(a), { type }, rules, user);
        // Nothing to heal: no write, as on Foundry.
        if (actions.changesTrack(asActor(a), r.update)) updateActor(store, a._id, r.update);
      } catch (e) {
        errors.push(errorText(e, store, a._id));
      }
    }
  return errors;
}

/** Posts a chat message; returns its id. */
function postMessage(store: Store, type: string, system: unknown, alias: string): string {
  const _id = newId();
  store.updateDocs({}, (d) => {
    d.messages.push({
      _id,
      type,
      system: structuredClone(system) as Record<string, unknown>,
      speaker: { alias },
      timestamp: Date.now(),
    });
  });
  return _id;
}

/**
 * An attack card posted for `attackerId`, then (FATE) his Clipped box reset if he rolled while
 * Clipped — as src/foundry/chat.ts postAttackCard: the card first, then the attacker's own write.
 */
function postAttack(
  store: Store,
  attackerId: string,
  card: AttackCardData,
  user: actions.UserRef,
  rules: WorldRules,
): void {
  const attacker = store.actor(attackerId)!;
  const messageId = postMessage(store, "attackCard", card, attacker.name);
  const u = attackClippedUpdate(asActor(store.actor(attackerId)!), rules, user, messageId, Date.now());
  if (u) updateActor(store, attackerId, u);
}

/**
 * Apply as the GM's client does it (src/foundry/chat.ts runCardAction): the result re-derived from
 * the live attacker and defender, the defence roll recorded on the defender and the card's
 * recorded dice (src/system/integrity.ts rederiveTarget), never the card's stored result. The
 * playground's one user posts every card, so he is the card's author.
 */
function applyLive(
  store: Store,
  messageId: string,
  targetId: string,
  user: actions.UserRef,
  rules: WorldRules,
  spendFudgePoint = false,
) {
  const card = store.message(messageId)!.system as unknown as AttackCardData;
  const defender = asActor(store.actor(targetId)!);
  const t = card.targets.find((x) => x.actorId === targetId);
  if (!t)
    throw new RulesError("target", "FUDGE.Error.NotATarget", `${defender.name} is not a target of this attack`, {
      name: defender.name,
    });
  const attacker = store.actor(card.attackerId);
  const live = rederiveTarget(
    card,
    t,
    {
      attacker: attacker ? asActor(attacker) : null,
      defender,
      author: user,
      defenceFaces: defenceFacesOf(defender, messageId),
      messageId,
      postedAt: store.message(messageId)!.timestamp,
    },
    rules,
  );
  return actions.applyDamage(card, defender, user, rules, {
    spendFudgePoint,
    messageId,
    resolution: live.resolution,
    differs: live.differs,
  });
}

/** GM judgement (Fudge §4.55) as the GM's client does it (src/foundry/chat.ts runJudgement): GM only, nothing rolled for a target not awaiting it. */
function judgeLive(
  store: Store,
  messageId: string,
  targetId: string,
  user: actions.UserRef,
  rules: WorldRules,
  level: string,
  dice: PlaygroundDice,
) {
  const card = store.message(messageId)!.system as unknown as AttackCardData;
  const defender = asActor(store.actor(targetId)!);
  if (!user.isGM)
    throw new RulesError("user", "FUDGE.Error.GmJudgement.GmOnly", "only the GM picks the wound", {
      name: defender.name,
    });
  const t = card.targets.find((x) => x.actorId === targetId);
  if (!t)
    throw new RulesError("target", "FUDGE.Error.NotATarget", `${defender.name} is not a target of this attack`, {
      name: defender.name,
    });
  const attacker = store.actor(card.attackerId);
  const sides = {
    attacker: attacker ? asActor(attacker) : null,
    defender,
    author: user,
    defenceFaces: defenceFacesOf(defender, messageId),
    messageId,
  };
  if (rederiveTarget(card, t, sides, rules).resolution.outcome !== "gmJudgement")
    throw new RulesError(
      "gmLevel",
      "FUDGE.Error.GmJudgement.NotPending",
      `${defender.name}'s wound is not the GM's to judge`,
      { name: defender.name },
    );
  const slot = actions.gmRollSlot(rules);
  const pick = slot ? { level, situational: rollSlotSync(slot, rngRoller(dice.rng)).faces } : { level };
  const live = rederiveTarget(card, t, { ...sides, gm: pick }, rules);
  return actions.judgeWound(card, defender, user, rules, pick, {
    messageId,
    resolution: live.resolution,
    differs: live.differs,
  });
}

// ─── Dice: the host rolls what the rules name ───────────────────────────────────────────

/** Dice of a trait roll: Volt traits roll 2d20 (black, white), every other preset 4dF (Fudge §1.4) — the system's roll path (src/system/rolling.ts) with the playground's dice. */
function traitFaces(traitKey: string, preset: string, dice: PlaygroundDice): number[] {
  return rollSlotSync(traitRollSlot(traitKey, preset), rngRoller(dice.rng)).faces;
}

/** Dice of the defender's slot on a card, rolled with the slot's own roll function. */
function defenceFaces(card: AttackCardData, actorId: string, dice: PlaygroundDice): number[] {
  const t = card.targets.find((x) => x.actorId === actorId);
  if (!t) throw new Error(`no target ${actorId} on this card`);
  const p = pipelineFor((t.request as { preset?: unknown }).preset);
  const slot = p.slots(p.parseRequest(t.request)).find((s) => actions.isDefenderSlot(s.id));
  if (!slot) throw new Error("this attack has no defence roll");
  return rollSlotSync(slot, rngRoller(dice.rng)).faces;
}

// ─── Actions ────────────────────────────────────────────────────────────────────────────

function data(el: HTMLElement, ...names: string[]): string | undefined {
  for (const n of names) if (el.dataset[n] !== undefined) return el.dataset[n];
  return undefined;
}

function need(v: string | undefined, what: string): string {
  if (v === undefined || v === "") throw new Error(`this button has no data-${what}`);
  return v;
}

function itemIdOf(el: HTMLElement): string {
  return need(data(el, "itemId") ?? el.closest<HTMLElement>("[data-item-id]")?.dataset.itemId, "item-id");
}

/** The card target (actor id) a card button acts on: data-target-id / data-actor-id on it or an ancestor. */
function cardTargetId(el: HTMLElement): string {
  const holder = el.closest<HTMLElement>("[data-target-id],[data-actor-id]") ?? el;
  return need(data(holder, "targetId", "actorId"), "target-id");
}

/** A feedback sentence (heal, rest, recover) in plain words, for the toast. */
function feedbackText(f: { key: string; params: Record<string, string | number> }): string {
  // The step's own sentence first (its params), then the actor's name around it.
  const what = typeof f.params.what === "string" ? i18n.format(f.params.what, f.params) : "";
  return i18n.format(f.key, { ...f.params, what });
}

/** Runs a data-action; returns a feedback sentence to show when the action has one. */
export function dispatch(store: Store, dice: PlaygroundDice, call: ActionCall): string | void {
  const s = store.state;
  const rules = rulesOf(s);
  const user = userOf(s);
  const el = call.target;

  if (call.doc.kind === "actor") {
    const actor = store.actor(call.doc.id.split("/")[0]);
    if (!actor) throw new Error(`no actor ${call.doc.id}`);
    const a = asActor(actor);
    switch (call.action) {
      case "toggleBox":
      case "toggleWoundBox":
        return updateActor(
          store,
          actor._id,
          actions.toggleWoundBox(a, need(data(el, "ref", "box"), "ref"), rules, user),
        );
      case "rollTrait":
      case "roll": {
        const key = need(data(el, "trait", "traitKey", "key"), "trait");
        const inCombat = s.inCombat === true;
        // Fudge §4.51 option: a wounded character rolls Willpower against the penalty first (as in Foundry).
        const willpowerDice = actions.traitWillpowerNeeded(a, key, rules, inCombat)
          ? rollSlotSync(WILLPOWER_ROLL, rngRoller(dice.rng)).faces
          : undefined;
        const card = actions.rollTrait(a, key, traitFaces(key, rules.preset, dice), rules, {
          user,
          inCombat,
          ...(call.rollOptions ?? {}),
          ...(willpowerDice ? { willpowerDice } : {}),
        });
        postMessage(store, "rollCard", card, actor.name);
        // FATE: a roll made while Clipped was his "next action": the box resets after it (src/system/clipped.ts).
        const reset = rollsWhileClipped(a, rules)
          ? traitClippedUpdate(asActor(store.actor(actor._id)!), rules, user)
          : null;
        if (reset) updateActor(store, actor._id, reset);
        return;
      }
      case "heal": {
        // The numbers the healing kind needs come from the healing dialog (as in Foundry).
        const type = need(data(el, "heal", "type"), "heal");
        const inputs = call.inputs ?? {};
        // Refused before any die is rolled (permission, bad input, Volt: no Injury to recover from), as in Foundry.
        actions.healWounds(a, healingRequest(type, a, inputs, DRY_HEAL_DICE, rules), rules, user);
        const roll = rngRoller(dice.rng);
        // Volt: Recovery — the medical Background roll (two d20) comes before the recovery roll (two d20), as in Foundry.
        const medical = healsWithMedicalRoll(type, inputs) ? (roll("2d20").faces as [number, number]) : undefined;
        const healDice: HealDice =
          type === "injuryRecovery"
            ? { fudge: [], d20: roll("2d20").faces as [number, number], ...(medical ? { medical } : {}) }
            : { fudge: roll("4dF").faces, d20: roll("2d20").faces as [number, number] };
        // Fudge §4.8 option: natural healing's Constitution roll is healDice.fudge, told before the result.
        const line = healNoteLine(type, a, healDice, rules);
        const r = actions.healWounds(a, healingRequest(type, a, inputs, healDice, rules), rules, user);
        updateActor(store, actor._id, r.update);
        const feedback = feedbackText(healFeedback(actor.name, r.steps));
        if (type === "injuryRecovery") {
          // Volt: the roll's name with the world's interval, the medical roll and the recovery roll, step by step (Foundry's note).
          const lines = injuryRecoveryNoteLines(inputs, healDice, r.steps, (k, p) => i18n.format(k, p));
          return [`${i18n.format(healRollTitle(type, a, rules), {})}:`, ...lines, feedback].join(" ");
        }
        return line ? `${i18n.format(line.key, line.params)} ${feedback}` : feedback;
      }
      case "recover": {
        const [black, white] = rngRoller(dice.rng)("2d20").faces;
        const r = actions.recover(a, black, white, rules, user);
        updateActor(store, actor._id, r.update);
        return feedbackText(healFeedback(actor.name, r.steps));
      }
      case "gutsCheck": {
        // Miniatures: a Guts check the table calls for; the playground has no combat turns (turn 0).
        const faces = rollSlotSync(GUTS_ROLL, rngRoller(dice.rng)).faces;
        const r = actions.gutsCheckAction(
          a,
          { ...gutsTriggerOf(call.guts ?? defaultGutsChoice()), turn: 0 },
          faces,
          rules,
          user,
        );
        updateActor(store, actor._id, r.update);
        return gutsNoteLines(r, (k, p) => i18n.format(k, p)).join(" ");
      }
      case "resetTrack":
        return updateActor(store, actor._id, actions.resetTrack(a, user));
      case "killActor":
        // RULES §2.2 automatic death (GM only, no roll); the page asks first, as Foundry's dialog does.
        return updateActor(store, actor._id, actions.killActor(a, rules, user).update);
      case "undoKill":
        // Its undo (GM only): the track goes back to the kill's record.
        return updateActor(store, actor._id, actions.undoKill(a, rules, user));
      case "addCustomLevel":
      case "removeCustomLevel":
        return updateActor(
          store,
          actor._id,
          actions.editCustomLevels(
            a,
            call.action === "addCustomLevel" ? "add" : "remove",
            Number(el.dataset.index ?? -1),
            user,
          ),
        );
      case "attack": {
        const weaponId = data(el, "itemId", "weaponId") ?? null;
        const situation = call.situation ?? rememberedSituation(s);
        const card = rollAttackSync(
          (d) => actions.startAttack(a, weaponId, targetsOf(store, actor._id), situation, d, rules, user),
          rngRoller(dice.rng),
        );
        return postAttack(store, actor._id, card, user, rules);
      }
      case "attackAll": {
        const kind = data(el, "kind") === "ranged" ? "ranged" : "melee";
        const targets = targetsOf(store, actor._id);
        const situation = call.situation ?? rememberedSituation(s);
        // Each attack from the live attacker, as Foundry's loop rolls them one after the other.
        for (const weaponId of actions.wieldedAttacks(a, kind, rules)) {
          const live = asActor(store.actor(actor._id)!);
          postAttack(
            store,
            actor._id,
            rollAttackSync(
              (d) => actions.startAttack(live, weaponId, targets, situation, d, rules, user),
              rngRoller(dice.rng),
            ),
            user,
            rules,
          );
        }
        return;
      }
      // Plain document operations (Foundry's createEmbeddedDocuments / update / delete, item sheets).
      case "createItem": {
        const type = (data(el, "type") ?? "skill") as ItemType;
        const make = ITEM_DEFAULTS[type];
        if (!make) throw new Error(`unknown item type ${type}`);
        const name = i18n.format("DOCUMENT.New", { type: i18n.localize(`TYPES.Item.${type}`) });
        return store.updateDocs({ actors: [actor._id] }, (d) => {
          d.actors
            .find((x) => x._id === actor._id)
            ?.items?.push({
              _id: newId(),
              name: name === "DOCUMENT.New" ? `New ${type}` : name,
              type,
              system: make() as unknown as Record<string, unknown>,
            });
        });
      }
      case "deleteItem": {
        const id = itemIdOf(el);
        return store.updateDocs({ actors: [actor._id] }, (d) => {
          const x = d.actors.find((y) => y._id === actor._id);
          if (x) x.items = (x.items ?? []).filter((i) => i._id !== id);
          d.open = d.open.filter((k) => k !== `${actor._id}/${id}`);
        });
      }
      case "toggleEquipped": {
        const id = itemIdOf(el);
        return store.updateDocs({ actors: [actor._id] }, (d) => {
          const it = d.actors.find((y) => y._id === actor._id)?.items?.find((i) => i._id === id);
          if (it && typeof it.system.equipped === "boolean") it.system.equipped = !it.system.equipped;
        });
      }
      case "editItem": {
        const key = `${actor._id}/${itemIdOf(el)}`;
        return store.updateDocs({}, (d) => void (d.open.includes(key) || (d.open = [...d.open, key])));
      }
      case "editImage":
        throw new Error("Foundry's file picker is not part of the playground.");
      default:
        throw new Error(`the playground has no handler for the sheet action "${call.action}"`);
    }
  }

  const msg = store.message(call.doc.id);
  if (!msg) throw new Error(`no message ${call.doc.id}`);
  const card = msg.system as unknown as AttackCardData;
  if (call.action === "applyAll") {
    // "Apply to all targets": each target's own Apply in turn, as the Foundry card does.
    for (const t of card.targets) {
      const res = t.resolution as { wound?: unknown } | null;
      if (!res || res.wound === null || res.wound === undefined || actions.liveApplied(t)) continue;
      if (!store.actor(t.actorId)) continue;
      // As the single Apply: re-derived from the live sides, and recorded in the target's wound log (what the card reads as applied).
      const r = applyLive(store, msg._id, t.actorId, user, rules);
      store.updateDocs({ actors: [t.actorId], messages: [msg._id] }, (d) => {
        const a = d.actors.find((x) => x._id === t.actorId);
        if (a) mergeUpdate(a, r.actorUpdate);
        const m = d.messages.find((x) => x._id === msg._id);
        if (m) mergeUpdate(m, r.cardUpdate);
      });
    }
    return;
  }
  const index = el.dataset.targetIndex;
  const targetId =
    index !== undefined && card.targets?.[Number(index)] ? card.targets[Number(index)].actorId : cardTargetId(el);
  const targetActor = store.actor(targetId);
  if (!targetActor) throw new Error(`the target ${targetId} is not in this world`);
  const ta = asActor(targetActor);
  // Defend, Apply and Undo write the target actor and the card in one store update.
  const setBoth = (r: { actorUpdate: object; cardUpdate: { system: unknown } }) =>
    store.updateDocs({ actors: [targetId], messages: [msg._id] }, (d) => {
      const a = d.actors.find((x) => x._id === targetId);
      if (a) mergeUpdate(a, r.actorUpdate);
      const m = d.messages.find((x) => x._id === msg._id);
      if (m) mergeUpdate(m, r.cardUpdate);
    });
  switch (call.action) {
    case "defend": {
      // As src/foundry/chat.ts: one defence roll per card and target, kept on the defender (where
      // Apply reads it); FATE: a roll made while Clipped resets the box in that same write.
      if (defenceFacesOf(ta, msg._id))
        throw new RulesError("defend", "FUDGE.Error.AlreadyDefended", `${ta.name} has already defended`, {
          name: ta.name,
        });
      const faces = defenceFaces(card, targetId, dice);
      const cardUpdate = actions.defend(card, ta, faces, user);
      return setBoth({
        actorUpdate: defenceRollUpdate(ta, rules, { messageId: msg._id, faces, by: user.id, at: Date.now() }),
        cardUpdate,
      });
    }
    case "apply":
    case "applyFudgePoint":
      return setBoth(applyLive(store, msg._id, targetId, user, rules, call.action === "applyFudgePoint"));
    case "undo":
      return setBoth(
        actions.undoDamage(card, ta, user, rules, { force: el.dataset.force === "true", messageId: msg._id }),
      );
    case "applyJudgement": {
      // As src/foundry/chat.ts runJudgement: the GM's pick from the card's picker, the Situational
      // 4dF (the world's option) rolled after it, the result re-derived from the live sides.
      const level =
        el.closest(".fudge-target")?.querySelector<HTMLSelectElement>('select[name="gmLevel"]')?.value ?? "";
      const r = judgeLive(store, msg._id, targetId, user, rules, level, dice);
      return setBoth({ actorUpdate: r.actorUpdate ?? {}, cardUpdate: r.cardUpdate });
    }
    default:
      throw new Error(`the playground has no handler for the card action "${call.action}"`);
  }
}

/**
 * Form fields, submitted on change. Actor sheets: `system.*` through the system's setActorField
 * (range-checked, as the Foundry sheet does) and `name`. Item sheets: Foundry's data models clean
 * the values there; here a field only gets its input's type (number, checkbox, text).
 */
export function submitField(
  store: Store,
  key: string,
  input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement,
): void {
  const [actorId, itemId] = key.split("/");
  const actor = store.actor(actorId);
  if (!actor) return;
  const raw = input instanceof HTMLInputElement && input.type === "checkbox" ? input.checked : input.value;
  if (itemId) {
    const path = input.name.split(".");
    return store.updateDocs({ actors: [actorId] }, (d) => {
      const it = d.actors.find((x) => x._id === actorId)?.items?.find((i) => i._id === itemId) as
        Record<string, unknown> | undefined;
      if (!it) return;
      let o = it;
      for (const p of path.slice(0, -1)) o = (o[p] ??= {}) as Record<string, unknown>;
      const key = path[path.length - 1];
      // Like a data model's field cleaning: a number stays a number (number inputs, numeric selects).
      const n = Number(raw);
      o[key] =
        (typeof o[key] === "number" || input.type === "number") &&
        typeof raw === "string" &&
        raw.trim() !== "" &&
        Number.isFinite(n)
          ? n
          : raw;
    });
  }
  if (input.name === "name")
    return store.updateDocs(
      { actors: [actorId] },
      (d) => void (d.actors.find((x) => x._id === actorId)!.name = String(raw)),
    );
  if (!input.name.startsWith("system.")) return;
  const u = actions.setActorField(asActor(actor), input.name.slice("system.".length), raw, userOf(store.state));
  updateActor(store, actorId, u);
}
