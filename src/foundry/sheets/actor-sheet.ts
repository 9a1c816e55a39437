/**
 * Actor sheets (ApplicationV2 + Handlebars). Thin: the context is src/system's
 * actorSheetContext, and every `data-action` is an entry of the sheet action table
 * (src/system/flows/tables.ts), whose flow runs against this client's port (../port.ts).
 * Field edits go through the same flows (range-checked by src/system's setActorField).
 */
import { isRulesError } from "../../rules";
import { TEMPLATES } from "../../system/handlebars";
import { actorSheetContext } from "../../system/sheet";
import { checkItemDrop } from "../../system/creation";
import * as flows from "../../system/flows";
import { actorInCombat, plainActor, worldRules, type DerivedActor } from "../bridge";
import { templatesReady } from "../templates";
import { enrichRichText } from "../rich-text";
import { ladderNames, reportError, systemPath } from "../foundry-util";
import { foundryPort, targetedTokens } from "../port";
import { targetMeasures } from "../measure";
import { withGmRecordsOf } from "../gm-records";
import { tabAfterKey } from "../../system/tabs";
import { loadWorldPreset } from "../presets";

const { HandlebarsApplicationMixin } = foundry.applications.api;
const { ActorSheetV2 } = foundry.applications.sheets;

// @ts-expect-error TS2321/TS2415: the mixin over ActorSheetV2 is too deep for the type checker to compare
export class FudgeActorSheet extends HandlebarsApplicationMixin(ActorSheetV2) {
  /** The combat tab (Attack, wound track) is the first screen; core's tab action switches tabs. */
  // No tab until the user picks one: the sheet's context chooses the first screen (src/system/sheet.ts).
  override tabGroups: Record<string, string> = {};

  static override DEFAULT_OPTIONS = {
    classes: ["fudge-wounds", "sheet", "actor"],
    position: { width: 720, height: 780 },
    window: { resizable: true },
    form: { submitOnChange: false, closeOnSubmit: false },
    // Every action of the sheet action table; core's own (tab) stay core's.
    actions: Object.fromEntries(Object.keys(flows.SHEET_ACTIONS).map((name) => [name, FudgeActorSheet.onAction])),
  };

  /** The wound box a keyboard or mouse user just toggled: it keeps the focus across the re-render. */
  focusRef: string | null = null;

  /** The user's targeted tokens (their documents) with an actor, this sheet's own actor excluded. */
  targetedTokens() {
    return targetedTokens(this.actorDoc);
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
    // The Attack tooltips' odds read the world's pipeline: a sheet drawn at start-up waits for it.
    await loadWorldPreset();
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

  /** ActorSheetV2's item drop (a compendium entry or another actor's item), refused where it has no place. */
  override async _onDropItem(event: DragEvent, item: Item): Promise<Item | null> {
    try {
      checkItemDrop(this.actorDoc.type, item.type, this.actorDoc.name);
    } catch (e) {
      reportError(e, this.actorDoc.name);
      return null;
    }
    return (super._onDropItem as (ev: DragEvent, it: Item) => Promise<Item | null>)(event, item);
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
    // An owned item's field picked on the actor sheet (a skill's level by ladder name).
    el.querySelectorAll<HTMLSelectElement>("select[data-item-field]").forEach((select) => {
      select.addEventListener("change", () => {
        this.submitItemField(select).catch((e) => reportError(e, this.actorDoc.name)); // a listener cannot wait: reported
      });
    });
    // The GM's pick of the world's creation method on a character's creation panel (a world setting).
    el.querySelector<HTMLSelectElement>("select[data-world-setting='creation.method']")?.addEventListener(
      "change",
      (ev) => {
        const raw = (ev.target as HTMLSelectElement).value;
        flows.pickCreationMethod(foundryPort(), raw).catch((e) => reportError(e)); // a listener cannot wait: reported
      },
    );
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

  /** Writes an owned item's field the actor sheet edits, through its flow (checked by src/system first). */
  async submitItemField(select: HTMLSelectElement): Promise<void> {
    const { itemId = "", itemField = "" } = select.dataset;
    await flows.editItemField(foundryPort(), this.actorDoc.uuid, itemId, itemField, select.value);
  }

  async submitField(input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement): Promise<void> {
    const port = foundryPort();
    if (input.name === "name") {
      const name = input.value.trim();
      if (name) await port.rename(this.actorDoc.uuid, name);
      return;
    }
    const path = systemPath(input.name);
    if (!path) return;
    const raw = input instanceof HTMLInputElement && input.type === "checkbox" ? input.checked : input.value;
    try {
      await flows.editField(port, this.actorDoc.uuid, path, raw);
    } catch (e) {
      reportError(e, this.actorDoc.name);
      // Back to the stored value; a failed render is reported too.
      (this as unknown as { render(): Promise<unknown> }).render().catch((err) => reportError(err)); // see above
    }
  }

  /**
   * A `data-action` click: its entry of the sheet action table, run against this client's port.
   * A refusal (RulesError) becomes a notification naming the actor (nothing is written).
   */
  static async onAction(this: FudgeActorSheet, event: Event, target: HTMLElement): Promise<void> {
    // The wound box a keyboard or mouse user toggles keeps the focus across the re-render.
    if (target.dataset.action === "toggleWoundBox") this.focusRef = target.dataset.ref ?? target.dataset.box ?? null;
    const click = flows.clickOf(target, this.actorDoc.uuid, (event as MouseEvent).shiftKey === true);
    try {
      await flows.runSheetAction(foundryPort(), click);
    } catch (e) {
      if (isRulesError(e)) reportError(e, this.actorDoc.name);
      else throw e;
    }
  }

  /** A `data-action` with no entry in the sheet action table (v13 calls this for actions without a handler): fails loudly. */
  override _onClickAction(event: PointerEvent, target: HTMLElement): void {
    const action = target.dataset.action ?? "";
    if (action in flows.HOST_ACTIONS) {
      (super._onClickAction as (e: PointerEvent, t: HTMLElement) => void).call(this, event, target);
      return;
    }
    // The table's runner throws for an unknown action; the user is told, the console keeps it.
    flows
      .runSheetAction(foundryPort(), flows.clickOf(target, this.actorDoc.uuid, event.shiftKey))
      .catch((e) => reportError(e, this.actorDoc.name)); // a listener cannot wait: the failure is reported
  }
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
