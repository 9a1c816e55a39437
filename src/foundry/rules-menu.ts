/**
 * The settings menu: every world rule, grouped, each with its hint (an ApplicationV2 form built from
 * src/system/settings-menu.ts RULE_FIELDS). Loaded on demand, when the menu is first opened
 * (src/foundry/settings.ts RulesMenuOpener). Changing the preset on a world with wounded actors asks
 * before converting their tracks.
 */
import type { WorldRules } from "../system/data";
import { worldRules } from "./bridge";
import { reportError } from "./foundry-util";
import { SYSTEM_ID } from "../system/registry";
import {
  PRESET_GROUPS,
  RULE_GROUPS,
  SettingsFormError,
  addTableRow,
  applyRulesForm,
  changedSettings,
  choiceKey,
  removeTableRow,
  rulesMenuContext,
  woundedActors,
} from "../system/settings-menu";
import { TEMPLATES } from "../system/handlebars";
import * as flows from "../system/flows";
import { foundryPort } from "./port";

const { ApplicationV2 } = foundry.applications.api;
const settings = () => game.settings!;
const loc = (k: string) => game.i18n!.localize(k);

/** Writes the changed top-level settings. */
export async function saveWorldRules(before: WorldRules, after: WorldRules): Promise<void> {
  for (const key of changedSettings(before, after))
    await settings().set(SYSTEM_ID as never, key as never, after[key] as never);
}

const esc = (s: unknown) => foundry.utils.escapeHTML(String(s ?? ""));

/** The settings menu: every world rule, grouped, each with its hint. */
export class RulesMenu extends ApplicationV2 {
  static override DEFAULT_OPTIONS = {
    id: "fudge-wounds-rules",
    tag: "form",
    classes: ["fudge-wounds", "fudge-rules-menu"],
    window: { title: "FUDGE.Settings.Menu.Name", icon: "fa-solid fa-scale-balanced", resizable: true },
    position: { width: 560, height: 680 },
    form: { handler: RulesMenu.onSubmit, closeOnSubmit: true, submitOnChange: false },
    // The table fields' rows (src/system/settings-menu.ts addTableRow / removeTableRow): edited in the form, read on submit.
    actions: {
      addRuleRow: (_event: PointerEvent, target: HTMLElement) => addTableRow(target),
      removeRuleRow: (_event: PointerEvent, target: HTMLElement) => removeTableRow(target),
    },
  };

  /** The groups shown (general + the active preset's): only those are read back on submit. */
  shownGroups: readonly string[] = RULE_GROUPS;

  protected override async _renderHTML(): Promise<HTMLElement> {
    const rules = worldRules();
    this.shownGroups = PRESET_GROUPS[rules.preset] ?? RULE_GROUPS;
    const div = document.createElement("div");
    div.classList.add("scrollable");
    div.innerHTML =
      (await foundry.applications.handlebars.renderTemplate(
        `systems/${SYSTEM_ID}/${TEMPLATES.rulesMenu}`,
        rulesMenuContext(rules) as never,
      )) +
      `<footer class="form-footer"><button type="submit"><i class="fa-solid fa-save"></i> ${esc(loc("FUDGE.Settings.Menu.Save"))}</button></footer>`;
    return div;
  }

  protected override _replaceHTML(result: HTMLElement, content: HTMLElement): void {
    content.replaceChildren(result);
  }

  static async onSubmit(
    this: RulesMenu,
    _event: Event | SubmitEvent,
    _form: HTMLFormElement,
    formData: { object: Record<string, unknown> },
  ): Promise<void> {
    const before = worldRules();
    let after: WorldRules;
    try {
      const combatRunning = (game.combats?.contents ?? []).some((c) => (c as Combat.Implementation).started);
      after = applyRulesForm(before, formData.object, this.shownGroups, { combatRunning });
    } catch (e) {
      // In plain words (src/system/error-text.ts): a table cell names its row and table.
      if (e instanceof SettingsFormError) return reportError(e);
      throw e;
    }
    if (after.preset !== before.preset && !(await confirmPresetChange(before.preset, after.preset)))
      after.preset = before.preset;
    await saveWorldRules(before, after);
    await remapWorldAttributes(before, after);
  }
}

/**
 * The wound tracks of different presets have different shapes (boxes, FATE ladder, Volt rows),
 * so a preset change resets the marked tracks of world actors — after asking.
 */
export async function confirmPresetChange(from: string, to: string): Promise<boolean> {
  const wounded = woundedActors(
    game.actors!.contents as unknown as { name: string; system: { woundTrack?: { state?: unknown } } }[],
  );
  if (!wounded.length) return true;
  const names = wounded.map((a) => esc(a.name)).join(", ");
  const ok = await foundry.applications.api.DialogV2.confirm({
    window: { title: "FUDGE.Settings.PresetChange.Title" },
    content: `<p>${esc(game.i18n!.format("FUDGE.Settings.PresetChange.Body", { from: loc(choiceKey("preset", from)), to: loc(choiceKey("preset", to)), count: String(wounded.length) }))}</p><p>${names}</p>`,
  });
  if (!ok) return false;
  // Each reset is the writer's (this GM's client, or the active GM's), in the actor's turn.
  const port = foundryPort();
  for (const a of wounded as unknown as Actor.Implementation[]) await port.changeActor(a.uuid, { kind: "resetTrack" });
  return true;
}

/**
 * The GM saved another attribute set: each world actor's levels follow their roles to the new
 * keys (an old Damage Capacity becomes Health), written only where something changes; nothing is
 * deleted (the flow src/system/flows/creation.ts carryAttributes, through the serialised write).
 */
export async function remapWorldAttributes(before: WorldRules, after: WorldRules): Promise<void> {
  const refs = [...(game.actors ?? [])].map((a) => a.uuid);
  await flows.carryAttributes(foundryPort(), refs, before, after);
}
