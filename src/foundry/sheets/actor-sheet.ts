/**
 * Actor sheets (ApplicationV2 + Handlebars). Thin: the context is src/system's
 * actorSheetContext, every `data-action` calls a src/system action and persists its plain
 * update with `update`. Field edits go through src/system's setActorField (range-checked).
 */
import { isRulesError } from "../../rules";
import { TEMPLATES } from "../../system/handlebars";
import { actorSheetContext } from "../../system/sheet";
import { healFeedback } from "../../system/view";
import { readRollOptions, rollDialogContext } from "../../system/attack-dialog";
import { fill } from "../../system/i18n";
import * as actions from "../../system/actions";
import { rollsWhileClipped, traitClippedUpdate } from "../../system/clipped";
import { actorInCombat, changeActor, plainActor, worldRules, type DerivedActor } from "../bridge";
import { withGmRecordsOf } from "../gm-records";
import { templatesReady } from "../templates";
import { enrichRichText } from "../rich-text";
import { ladderNames, reportError, systemPath, userRef } from "../foundry-util";
import { foundryRoller, postRollNote, postWithRolls } from "../dice";
import {
  GUTS_ROLL,
  WILLPOWER_ROLL,
  healRollFormula,
  healRollTitle,
  rollFaces,
  rollSlot,
  traitDryFaces,
  traitRollSlot,
} from "../../system/rolling";
import { startAttackFlow, targetMeasures } from "../chat";
import type { TokenLike } from "../guts-table";
import {
  DRY_HEAL_DICE,
  HEAL_INPUTS,
  healDialogContext,
  healNoteLine,
  healingRequest,
  healsWithMedicalRoll,
  injuryRecoveryNoteLines,
  readHealInputs,
} from "../../system/heal";
import {
  gutsChoiceFor,
  gutsDialogContext,
  gutsNoteLines,
  gutsTriggerOf,
  readGutsChoice,
  type GutsDialogChoice,
} from "../../system/guts-dialog";
import { combatTurn } from "../../system/combat";
import { tabAfterKey } from "../../system/tabs";
import { liveGutsCircumstances } from "../guts-table";

const { HandlebarsApplicationMixin } = foundry.applications.api;
const { ActorSheetV2 } = foundry.applications.sheets;

type Target = HTMLElement;

/** Heal, rest and recover say what they did, in plain words (a toast). */
function notifyFeedback(f: { key: string; params: Record<string, string | number> }): void {
  const fmt = (k: string, p: Record<string, unknown>) => fill(game.i18n!.localize(k), p, (v) => game.i18n!.localize(v));
  const what = typeof f.params.what === "string" ? fmt(f.params.what, f.params) : "";
  ui.notifications!.info(fmt(f.key, { ...f.params, name: foundry.utils.escapeHTML(String(f.params.name)), what }));
}
const data = (el: Target, ...names: string[]): string | undefined => {
  for (const n of names) if (el.dataset[n] !== undefined) return el.dataset[n];
  return undefined;
};

// @ts-expect-error TS2321/TS2415: the mixin over ActorSheetV2 is too deep for the type checker to compare
export class FudgeActorSheet extends HandlebarsApplicationMixin(ActorSheetV2) {
  /** The combat tab (Attack, wound track) is the first screen; core's tab action switches tabs. */
  override tabGroups: Record<string, string> = { primary: "combat" };

  static override DEFAULT_OPTIONS = {
    classes: ["fudge-wounds", "sheet", "actor"],
    position: { width: 720, height: 780 },
    window: { resizable: true },
    form: { submitOnChange: false, closeOnSubmit: false },
    actions: {
      toggleBox: FudgeActorSheet.onToggleBox,
      toggleWoundBox: FudgeActorSheet.onToggleBox,
      rollTrait: FudgeActorSheet.onRollTrait,
      roll: FudgeActorSheet.onRollTrait,
      heal: FudgeActorSheet.onHeal,
      recover: FudgeActorSheet.onRecover,
      resetTrack: FudgeActorSheet.onResetTrack,
      killActor: FudgeActorSheet.onKill,
      undoKill: FudgeActorSheet.onUndoKill,
      addCustomLevel: FudgeActorSheet.onEditCustomLevels,
      removeCustomLevel: FudgeActorSheet.onEditCustomLevels,
      attack: FudgeActorSheet.onAttack,
      attackAll: FudgeActorSheet.onAttackAll,
      createItem: FudgeActorSheet.onCreateItem,
      editItem: FudgeActorSheet.onEditItem,
      deleteItem: FudgeActorSheet.onDeleteItem,
      toggleEquipped: FudgeActorSheet.onToggleEquipped,
      editImage: FudgeActorSheet.onEditImage,
      gutsCheck: FudgeActorSheet.onGutsCheck,
    },
  };

  /** The wound box a keyboard or mouse user just toggled: it keeps the focus across the re-render. */
  focusRef: string | null = null;

  /** The user's targeted tokens (their documents) with an actor, this sheet's own actor excluded. */
  targetedTokens(): (TokenLike & { actor: Actor.Implementation })[] {
    return [...((game.user?.targets ?? []) as Iterable<TokenLike & { document?: TokenLike }>)]
      .map((t) => t.document ?? t)
      .filter((t): t is TokenLike & { actor: Actor.Implementation } => !!t.actor && t.actor !== this.actorDoc);
  }

  /** The actors of the user's targeted tokens, this sheet's own excluded. */
  targetedOpponents(): Actor.Implementation[] {
    return this.targetedTokens().map((t) => t.actor);
  }

  get actorDoc(): Actor.Implementation {
    return (this as unknown as { document: Actor.Implementation }).document;
  }

  /** A LIMITED user sees the limited view only: name, portrait, condition (FOUNDRY-V13.md "AppV2 sheets"). */
  get limitedView(): boolean {
    return this.actorDoc.limited;
  }

  override _configureRenderParts(options: unknown) {
    const parts = (super._configureRenderParts as (o: unknown) => Record<string, unknown>).call(this, options);
    return (this.limitedView ? { limited: LIMITED_PART } : parts) as never;
  }

  override async _prepareContext(options: Parameters<InstanceType<typeof ActorSheetV2>["_prepareContext"]>[0]) {
    await templatesReady();
    const base = await super._prepareContext(options);
    if (this.limitedView) return Object.assign(base, limitedContext(this.actorDoc));
    const self = this as unknown as { isEditable: boolean };
    // Everything the template shows comes from src/system's context builder.
    const tabGroups = (this as unknown as { tabGroups?: Record<string, string> }).tabGroups ?? {};
    // The user's targeted tokens: each Attack button's tooltip gives the exact odds against them,
    // under what the table measures for each (range, gang-up, contact), as the attack dialog's.
    const tokens = this.targetedTokens();
    const targets = tokens.map((t) => plainActor(t.actor));
    // The GM's records about the actor (the automatic death's, for its undo button) come from the GM's store.
    const ctx = actorSheetContext(withGmRecordsOf(plainActor(this.actorDoc)), worldRules(), {
      editable: self.isEditable,
      owner: this.actorDoc.isOwner,
      ladderNames: ladderNames(),
      targets,
      targetMeasures: targetMeasures(this.actorDoc, tokens),
      activeTab: tabGroups.primary,
      domId: this.id,
      enrichedNotes: await enrichRichText((this.actorDoc.system as unknown as { notes?: string }).notes, this.actorDoc),
      uuid: this.actorDoc.uuid,
      inCombat: actorInCombat(this.actorDoc),
      gm: game.user?.isGM === true,
    });
    return Object.assign(base, ctx);
  }

  override async _onRender(context: unknown, options: unknown): Promise<void> {
    await (super._onRender as (c: unknown, o: unknown) => Promise<void>)(context, options);
    const el = (this as unknown as { element: HTMLElement }).element;
    // Inline fields: name="system.x.y"; src/system validates the value before the update.
    el.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>(
      "[name^='system.']:not(prose-mirror), [name='name']",
    ).forEach((input) => {
      input.addEventListener("change", () => {
        this.submitField(input).catch((e) => reportError(e)); // a listener cannot wait: a failure is reported
      });
    });
    // Notes: the toggled <prose-mirror> fires "save" with its new HTML as its value.
    el.querySelectorAll<HTMLElement & { value: string; name: string }>("prose-mirror[name^='system.']").forEach(
      (editor) => {
        editor.addEventListener("save", () => {
          const field = { name: editor.getAttribute("name") ?? "", value: String(editor.value ?? "") };
          this.submitField(field as HTMLInputElement).catch((e) => reportError(e)); // a listener cannot wait: reported
        });
      },
    );
    if (this.focusRef) {
      el.querySelector<HTMLElement>(`[data-ref="${CSS.escape(this.focusRef)}"]`)?.focus();
      this.focusRef = null;
    }
    el.querySelector<HTMLElement>('[role="tablist"]')?.addEventListener("keydown", (ev) => this.onTabKey(ev));
  }

  /** The ARIA tabs pattern's keys (src/system/tabs.ts): the tab reached opens through core's changeTab and takes the focus. */
  onTabKey(ev: KeyboardEvent): void {
    const tab = (ev.target as HTMLElement).closest<HTMLElement>('[role="tab"]');
    const list = tab?.closest<HTMLElement>('[role="tablist"]');
    if (!tab || !list) return;
    const ids = [...list.querySelectorAll<HTMLElement>('[role="tab"]')].map((t) => t.dataset.tab ?? "");
    const next = tabAfterKey(ids, tab.dataset.tab ?? "", ev.key);
    if (!next) return;
    ev.preventDefault();
    this.changeTab(next, tab.dataset.group ?? "primary");
    list.querySelector<HTMLElement>(`[role="tab"][data-tab="${CSS.escape(next)}"]`)?.focus();
  }

  /**
   * Core's changeTab (v13 ApplicationV2#changeTab) toggles the tabs' `active` class and sets
   * aria-pressed on button tabs; ARIA tabs are selected instead, and only the open one is in the
   * Tab order.
   */
  override changeTab(...args: Parameters<InstanceType<typeof ActorSheetV2>["changeTab"]>): void {
    super.changeTab(...args);
    const [tab, group] = args;
    const el = (this as unknown as { element: HTMLElement }).element;
    for (const t of el.querySelectorAll<HTMLElement>(`[role="tab"][data-group="${CSS.escape(group)}"]`)) {
      const open = t.dataset.tab === tab;
      t.removeAttribute("aria-pressed");
      t.setAttribute("aria-selected", String(open));
      t.tabIndex = open ? 0 : -1;
    }
  }

  async submitField(input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement): Promise<void> {
    if (input.name === "name") {
      const name = input.value.trim();
      if (name) await this.actorDoc.update({ name } as never);
      return;
    }
    const path = systemPath(input.name);
    if (!path) return;
    const raw = input instanceof HTMLInputElement && input.type === "checkbox" ? input.checked : input.value;
    try {
      await changeActor(this.actorDoc, (doc) => actions.setActorField(doc, path, raw, userRef()));
    } catch (e) {
      reportError(e, this.actorDoc.name);
      // Back to the stored value; a failed render is reported too.
      (this as unknown as { render(): Promise<unknown> }).render().catch((err) => reportError(err)); // see above
    }
  }

  /** Runs a src/system action; a RulesError becomes a notification (nothing is written). */
  async act(fn: () => unknown | Promise<unknown>): Promise<void> {
    try {
      await fn();
    } catch (e) {
      if (isRulesError(e)) reportError(e, this.actorDoc.name);
      else throw e;
    }
  }

  static async onToggleBox(this: FudgeActorSheet, _event: Event, target: Target): Promise<void> {
    const ref = data(target, "ref", "box");
    if (!ref) return;
    this.focusRef = ref;
    await this.act(() =>
      changeActor(this.actorDoc, (doc) => actions.toggleWoundBox(doc, ref, worldRules(), userRef())),
    );
  }

  /** A trait roll: the roll dialog (Difficulty, modifier); Shift-click rolls at once against the default Difficulty. */
  static async onRollTrait(this: FudgeActorSheet, event: Event, target: Target): Promise<void> {
    const key = data(target, "trait", "traitKey", "key");
    if (!key) return;
    let opts: { difficulty?: number; modifier?: number } = {};
    if ((event as MouseEvent).shiftKey !== true) {
      const content = await foundry.applications.handlebars.renderTemplate(
        `systems/fudge-wounds/${TEMPLATES.rollDialog}`,
        rollDialogContext(this.actorDoc.name ?? "", key, worldRules(), ladderNames()) as never,
      );
      const result = await foundry.applications.api.DialogV2.prompt({
        window: { title: "FUDGE.Roll.DialogTitle" },
        content,
        ok: {
          label: "FUDGE.Roll.Ok",
          callback: (_e: Event, button: HTMLButtonElement) => readRollOptions(new FormData(button.form!).entries()),
        },
        rejectClose: false,
      } as never);
      if (!result) return;
      opts = result as typeof opts;
    }
    await this.act(() => rollTraitAndPost(this.actorDoc, key, opts));
  }

  static async onHeal(this: FudgeActorSheet, _event: Event, target: Target): Promise<void> {
    const type = data(target, "heal", "type");
    if (!type) return;
    await this.act(async () => {
      // Refused before the dialog when it cannot happen at all (permission; Volt: no Injury to recover from).
      const before = plainActor(this.actorDoc);
      actions.healWounds(
        before,
        healingRequest(type, before, {}, DRY_HEAL_DICE, worldRules()),
        worldRules(),
        userRef(),
      );
      const inputs = await healInputsDialog(type, this.actorDoc.name ?? "");
      if (inputs === null) return;
      // Only the kinds that roll roll (Fudge §4.8 healing roll 4dF, the optional Constitution roll
      // of natural healing 4dF; Volt injury recovery 2d20, after the medical Background's 2d20
      // when there is medical care), as Foundry Rolls.
      const rules = worldRules();
      const actor = plainActor(this.actorDoc);
      const formula = healRollFormula(type, actor, rules);
      // Refused before any die is rolled (permission, bad input, Volt: no Injury to recover from).
      actions.healWounds(actor, healingRequest(type, actor, inputs, DRY_HEAL_DICE, rules), rules, userRef());
      // Volt: Recovery — the medical Background roll comes first; its success lowers the recovery roll's value.
      const medical = healsWithMedicalRoll(type, inputs) ? await rollFaces("2d20", foundryRoller) : null;
      const rolled = formula ? await rollFaces(formula, foundryRoller) : null;
      const dice = {
        fudge: formula === "4dF" ? rolled!.faces : [],
        d20: (formula === "2d20" ? rolled!.faces : [1, 1]) as [number, number],
        ...(medical ? { medical: medical.faces as [number, number] } : {}),
      };
      // The track is read in its turn (changeActor), after every earlier write to this actor.
      let steps: Parameters<typeof healFeedback>[1] = [];
      await changeActor(this.actorDoc, (doc) => {
        const r = actions.healWounds(
          doc,
          healingRequest(type, doc, inputs, dice, worldRules()),
          worldRules(),
          userRef(),
        );
        steps = r.steps;
        return r.update;
      });
      if (rolled) {
        const i18n = game.i18n!;
        const format = (key: string, params: Record<string, string | number>) =>
          fill(i18n.localize(key), params, (v) => i18n.localize(v));
        const line = healNoteLine(type, actor, dice, rules);
        // Volt: the note shows the medical roll and the recovery roll, and every step of both.
        const lines =
          type === "injuryRecovery"
            ? injuryRecoveryNoteLines(inputs, dice, steps, format)
            : line
              ? [format(line.key, line.params)]
              : [];
        await postRollNote(
          this.actorDoc,
          healRollTitle(type, actor, rules),
          lines,
          medical ? [medical, rolled] : [rolled],
        );
      }
      notifyFeedback(healFeedback(this.actorDoc.name ?? "", steps));
    });
  }

  static async onRecover(this: FudgeActorSheet): Promise<void> {
    await this.act(async () => {
      // Volt: Recover is a Willpower roll on two d20 (black, white), a Foundry Roll.
      actions.recover(plainActor(this.actorDoc), 1, 1, worldRules(), userRef());
      const rolled = await rollFaces("2d20", foundryRoller);
      let steps: Parameters<typeof healFeedback>[1] = [];
      await changeActor(this.actorDoc, (doc) => {
        const r = actions.recover(doc, rolled.faces[0], rolled.faces[1], worldRules(), userRef());
        steps = r.steps;
        return r.update;
      });
      await postRollNote(this.actorDoc, "FUDGE.Heal.Recover", [], [rolled]);
      notifyFeedback(healFeedback(this.actorDoc.name ?? "", steps));
    });
  }

  /**
   * Miniatures: a Guts check the table calls for (a Terrifying charge, a friend shooting into the
   * combat, another). The dialog asks why and the circumstances the datacard's gifts and faults
   * name (Steadfast, Faithful; the King's Noble presence and Leader); the rules core applies them,
   * stores a failure for the re-checks, and a Mercenary's failure says it flees the combat.
   */
  static async onGutsCheck(this: FudgeActorSheet): Promise<void> {
    const doc = plainActor(this.actorDoc);
    // The targeted opponents' Terrifying gifts fill the dialog's count (the player can change it).
    const opponents = this.targetedOpponents().map((a) => plainActor(a));
    // The model's standing and the live table tick Defending the King, Noble presence and Leader (guts-table.ts).
    const circumstances = this.actorDoc.type === "miniature" ? liveGutsCircumstances(this.actorDoc) : undefined;
    const content = await foundry.applications.handlebars.renderTemplate(
      `systems/fudge-wounds/${TEMPLATES.gutsDialog}`,
      gutsDialogContext(doc, gutsChoiceFor(opponents, undefined, circumstances)) as never,
    );
    const choice = (await foundry.applications.api.DialogV2.prompt({
      window: { title: "FUDGE.GutsDialog.Title" },
      content,
      ok: {
        label: "FUDGE.GutsDialog.Roll",
        callback: (_e: Event, button: HTMLButtonElement) => readGutsChoice(new FormData(button.form!).entries()),
      },
      rejectClose: false,
    } as never)) as GutsDialogChoice | null;
    if (!choice) return;
    const trigger = { ...gutsTriggerOf(choice), turn: combatTurn(game.combat?.round) };
    await this.act(async () => {
      // Refused before any die is rolled (permission, a miniature).
      actions.gutsCheckAction(doc, trigger, [0, 0, 0, 0], worldRules(), userRef());
      const rolled = await rollSlot(GUTS_ROLL, foundryRoller);
      let r: actions.GutsActionResult | null = null;
      await changeActor(this.actorDoc, (live) => {
        r = actions.gutsCheckAction(live, trigger, rolled.faces, worldRules(), userRef());
        return r.update;
      });
      const res = r as actions.GutsActionResult | null;
      if (!res) return;
      const i18n = game.i18n!;
      const lines = gutsNoteLines(res, (k, p) => fill(i18n.localize(k), p, (v) => i18n.localize(v)));
      await postRollNote(this.actorDoc, "FUDGE.Miniatures.GutsCheck", lines, [rolled]);
    });
  }

  static async onResetTrack(this: FudgeActorSheet): Promise<void> {
    const ok = await foundry.applications.api.DialogV2.confirm({
      window: { title: "FUDGE.Sheet.ResetTrack" },
      content: `<p>${game.i18n!.localize("FUDGE.Sheet.ResetTrackConfirm")}</p>`,
    });
    if (!ok) return;
    await this.act(() => changeActor(this.actorDoc, (doc) => actions.resetTrack(doc, userRef())));
  }

  /** RULES §2.2 automatic death (GM only, no roll): confirmed, then the track is marked Dead by src/system's killActor. */
  static async onKill(this: FudgeActorSheet): Promise<void> {
    // Refused for a player before anything is asked (the action refuses again).
    if (!game.user?.isGM) return reportError(actions.killRefusal(this.actorDoc.name ?? ""));
    const name = foundry.utils.escapeHTML(this.actorDoc.name ?? "");
    const ok = await foundry.applications.api.DialogV2.confirm({
      window: { title: "FUDGE.Sheet.Kill" },
      content: `<p>${game.i18n!.format("FUDGE.Sheet.KillConfirm", { name })}</p>`,
    } as never);
    if (!ok) return;
    await this.act(() =>
      changeActor(this.actorDoc, (doc) => actions.killActor(withGmRecordsOf(doc), worldRules(), userRef()).update),
    );
  }

  /**
   * Undo of the automatic death (GM only): confirmed with what it restores (the track before the
   * kill, from the GM's own record), then src/system's undoKill restores it from the live actor.
   */
  static async onUndoKill(this: FudgeActorSheet): Promise<void> {
    await this.act(async () => {
      const doc = withGmRecordsOf(plainActor(this.actorDoc));
      const s = actions.killUndoSummary(doc, worldRules(), userRef());
      const esc = (v: unknown) => foundry.utils.escapeHTML(String(v ?? ""));
      const level = s.level ? game.i18n!.localize(s.level) : game.i18n!.localize("FUDGE.Sheet.UndoKillUnhurt");
      const by = game.users?.get(s.by)?.name ?? s.by;
      const content = game.i18n!.format("FUDGE.Sheet.UndoKillConfirm", {
        name: esc(doc.name),
        level: esc(level),
        penalty: esc(s.penalty === 0 ? "0" : `−${Math.abs(s.penalty)}`),
        by: esc(by),
        time: esc(new Date(s.at).toLocaleString()),
      });
      const ok = await foundry.applications.api.DialogV2.confirm({
        window: { title: "FUDGE.Sheet.UndoKill" },
        content: `<p>${content}</p>`,
      } as never);
      if (!ok) return;
      await changeActor(this.actorDoc, (live) => actions.undoKill(withGmRecordsOf(live), worldRules(), userRef()));
    });
  }

  /** Fudge §4.57 custom track: add a level, or remove the row's level. */
  static async onEditCustomLevels(this: FudgeActorSheet, _event: Event, target: Target): Promise<void> {
    const op = target.dataset.action === "addCustomLevel" ? "add" : "remove";
    await this.act(() =>
      this.actorDoc.update(
        actions.editCustomLevels(plainActor(this.actorDoc), op, Number(target.dataset.index ?? -1), userRef()) as never,
      ),
    );
  }

  /** Attack: the attack dialog (odds per target); Shift-click rolls at once with the remembered choices. */
  static async onAttack(this: FudgeActorSheet, event: Event, target: Target): Promise<void> {
    const fastForward = (event as MouseEvent).shiftKey === true;
    await this.act(() => startAttackFlow(this.actorDoc, data(target, "itemId", "weaponId") ?? null, { fastForward }));
  }

  /** Miniatures: one attack with every wielded weapon of a kind (melee or ranged). */
  static async onAttackAll(this: FudgeActorSheet, event: Event, target: Target): Promise<void> {
    const kind = data(target, "kind") === "ranged" ? "ranged" : "melee";
    const fastForward = (event as MouseEvent).shiftKey === true;
    await this.act(() =>
      startAttackFlow(this.actorDoc, actions.wieldedAttacks(plainActor(this.actorDoc), kind, worldRules()), {
        fastForward,
      }),
    );
  }

  static async onCreateItem(this: FudgeActorSheet, _event: Event, target: Target): Promise<void> {
    const type = data(target, "type") ?? "skill";
    const name = game.i18n!.format("DOCUMENT.New", { type: game.i18n!.localize(`TYPES.Item.${type}`) });
    await this.actorDoc.createEmbeddedDocuments("Item", [{ name, type } as never]);
  }

  static onEditItem(this: FudgeActorSheet, _event: Event, target: Target): void {
    const id = data(target, "itemId") ?? target.closest<HTMLElement>("[data-item-id]")?.dataset.itemId;
    const item = id ? this.actorDoc.items.get(id) : undefined;
    const sheet = item?.sheet as unknown as { render(o: { force: boolean }): Promise<unknown> } | undefined;
    sheet?.render({ force: true }).catch((e) => reportError(e)); // an action handler is not awaited by core
  }

  static async onDeleteItem(this: FudgeActorSheet, _event: Event, target: Target): Promise<void> {
    const id = data(target, "itemId") ?? target.closest<HTMLElement>("[data-item-id]")?.dataset.itemId;
    const item = id ? this.actorDoc.items.get(id) : undefined;
    if (item) await item.deleteDialog();
  }

  static async onEditImage(this: FudgeActorSheet, _event: Event, target: Target): Promise<void> {
    const attr = data(target, "edit") ?? "img";
    const current = String(foundry.utils.getProperty(this.actorDoc, attr) ?? "");
    const FP = foundry.applications.apps.FilePicker.implementation;
    await new FP({
      type: "image",
      current,
      callback: (path: string) => this.actorDoc.update({ [attr]: path } as never).catch((e) => reportError(e)), // not awaited by the picker
    } as never).browse(current);
  }

  static async onToggleEquipped(this: FudgeActorSheet, _event: Event, target: Target): Promise<void> {
    const id = data(target, "itemId") ?? target.closest<HTMLElement>("[data-item-id]")?.dataset.itemId;
    const item = id ? this.actorDoc.items.get(id) : undefined;
    const sys = item?.system as { equipped?: boolean } | undefined;
    if (item && sys && typeof sys.equipped === "boolean")
      await item.update({ system: { equipped: !sys.equipped } } as never);
  }
}

/** Asks for the numbers a heal kind needs (HEAL_INPUTS); none → no dialog. */
/** The numbers a healing kind needs (templates/dialog/heal-dialog.hbs); null when closed. */
async function healInputsDialog(type: string, actorName: string): Promise<Record<string, number> | null> {
  if (!(HEAL_INPUTS[type] ?? []).length) return {};
  const content = await foundry.applications.handlebars.renderTemplate(
    `systems/fudge-wounds/${TEMPLATES.healDialog}`,
    healDialogContext(type, actorName, worldRules()) as never,
  );
  const result = await foundry.applications.api.DialogV2.prompt({
    window: { title: `FUDGE.Heal.Input.Title` },
    content,
    ok: {
      label: "FUDGE.Heal.Input.Ok",
      callback: (_e: Event, button: HTMLButtonElement) => readHealInputs(type, new FormData(button.form!).entries()),
    },
    rejectClose: false,
  } as never);
  return (result as Record<string, number> | null) ?? null;
}

const part = (template: string) => ({ sheet: { template: `systems/fudge-wounds/${template}`, scrollable: [""] } });
const LIMITED_PART = { template: `systems/fudge-wounds/${TEMPLATES.limited}` };

/** What a LIMITED user may read: name, portrait and condition — no traits, track or notes. */
export function limitedContext(actor: Actor.Implementation): Record<string, unknown> {
  const derived = (actor.system as unknown as { derived?: DerivedActor }).derived;
  const condition = derived?.condition ?? "able";
  const level = derived?.status?.levelKey ?? null;
  return {
    limited: {
      name: actor.name,
      img: actor.img,
      conditionKey: `FUDGE.Condition.${condition}`,
      levelKey: level ? `FUDGE.Wound.${level}` : null,
    },
  };
}

export class CharacterSheet extends FudgeActorSheet {
  static override PARTS = part(TEMPLATES.character);
}
export class NpcSheet extends FudgeActorSheet {
  static override PARTS = part(TEMPLATES.npc);
}
export class MiniatureSheet extends FudgeActorSheet {
  static override DEFAULT_OPTIONS = { ...FudgeActorSheet.DEFAULT_OPTIONS, position: { width: 560, height: 680 } };
  static override PARTS = part(TEMPLATES.miniature);
}

/**
 * A trait roll from the sheet: checked before any die is rolled (permission, "can act"), rolled as
 * a Foundry Roll, posted as a roll card; FATE: a roll made while Clipped was the character's "next
 * action", and his own client then resets the box (src/system/clipped.ts). Throws a RulesError.
 */
export async function rollTraitAndPost(
  actor: Actor.Implementation,
  key: string,
  opts: { difficulty?: number; modifier?: number } = {},
): Promise<void> {
  // Fudge §4.51 Light Wound: the penalty depends on being in a started combat when rolled.
  const inCombat = actorInCombat(actor);
  // Checked before any die is rolled; the dry run says whether the Willpower roll against the wound penalty is made (Fudge §4.51 option).
  const dry = actions.rollTrait(plainActor(actor), key, traitDryFaces(key), worldRules(), {
    user: userRef(),
    inCombat,
    willpowerDice: [0, 0, 0, 0],
    ...opts,
  });
  // The Willpower roll comes first (it eases the penalty of the roll that follows), its own Foundry Roll.
  const will = dry.willpowerDice ? await rollSlot(WILLPOWER_ROLL, foundryRoller) : null;
  const r = await rollSlot(traitRollSlot(key, worldRules().preset), foundryRoller);
  const rolled = plainActor(actor);
  const card = actions.rollTrait(rolled, key, r.faces, worldRules(), {
    user: userRef(),
    inCombat,
    ...opts,
    ...(will ? { willpowerDice: will.faces } : {}),
  });
  await postWithRolls({ type: "rollCard", system: card, speaker: ChatMessage.getSpeaker({ actor }) }, [
    ...(will?.rolls ?? []),
    ...r.rolls,
  ]);
  if (rollsWhileClipped(rolled, worldRules()))
    await changeActor(actor, (doc) => traitClippedUpdate(doc, worldRules(), userRef()));
}
