/**
 * The attack dialog in Foundry: DialogV2 around the system's template
 * (templates/dialog/attack-dialog.hbs, context from src/system/attack-dialog.ts — the same the
 * playground renders). The odds against each target are redrawn as the options change; the
 * choices are remembered per user (a user flag); Shift-click on Attack skips the dialog.
 */
import { attackDialogContext, readSituation } from "../system/attack-dialog";
import type { Situation } from "../system/combatant";
import type { ActorDoc, ItemDoc, WorldRules } from "../system/data";
import { TEMPLATES } from "../system/handlebars";
import { reportError } from "./foundry-util";
import { SYSTEM_ID } from "../system/registry";

const tpl = (p: string) => `systems/${SYSTEM_ID}/${p}`;
const FLAG = "attackSituation";

/** The user's last attack choices for this preset (flags are the user's own claim: re-read through readSituation). */
export function rememberedSituation(rules: WorldRules): Situation {
  const stored = (game.user?.getFlag(SYSTEM_ID as never, FLAG as never) ?? {}) as Record<string, unknown>;
  return readSituation(rules.preset, Object.entries(stored));
}

function formEntries(form: HTMLFormElement): [string, unknown][] {
  return (Array.from(form.elements) as HTMLInputElement[])
    .filter((el) => el.name)
    .map((el) => [el.name, el.type === "checkbox" ? el.checked : el.value]);
}

/**
 * Asks for the attack's situation (null when the user closes the dialog). `fastForward` (Shift
 * held on the Attack click) returns the remembered choices at once. `measured`: per target, what
 * the table measured (chat.ts): the odds are computed with it and its fields show it, not an input.
 */
export async function attackSituationDialog(
  attacker: ActorDoc,
  weapon: ItemDoc<"weapon"> | null,
  targets: ActorDoc[],
  rules: WorldRules,
  fastForward = false,
  measured: readonly Situation[] = [],
): Promise<Situation | null> {
  const last = rememberedSituation(rules);
  if (fastForward) return last;
  const render = (situation: Situation) =>
    foundry.applications.handlebars.renderTemplate(
      tpl(TEMPLATES.attackDialog),
      attackDialogContext(attacker, weapon, targets, rules, situation, measured) as never,
    );
  const content = await render(last);
  const result = await foundry.applications.api.DialogV2.wait({
    window: { title: "FUDGE.Attack.DialogTitle", icon: "fa-solid fa-swords" },
    position: { width: 420 },
    content,
    buttons: [
      {
        action: "roll",
        label: "FUDGE.Attack.Roll",
        icon: "fa-solid fa-dice",
        default: true,
        callback: (_event: Event, button: HTMLButtonElement) => readSituation(rules.preset, formEntries(button.form!)),
      },
    ],
    // v13 calls render(event, dialog); the odds follow the form, the field being edited keeps focus.
    render: (_event: Event, dialog: { element?: HTMLElement } | HTMLElement) => {
      const root = (dialog instanceof HTMLElement ? dialog : dialog.element) as HTMLElement | undefined;
      const form = root?.querySelector("form");
      if (!form) return;
      const refresh = async () => {
        const html = await render(readSituation(rules.preset, formEntries(form)));
        const tmp = document.createElement("div");
        tmp.innerHTML = html;
        const next = tmp.querySelector(".fudge-odds-list");
        const here = form.querySelector(".fudge-odds-list");
        if (next && here) here.innerHTML = next.innerHTML;
      };
      const onChange = () => {
        refresh().catch((e) => reportError(e)); // a listener cannot wait: a failed refresh is reported
      };
      form.addEventListener("change", onChange);
      form.addEventListener("input", onChange);
    },
    rejectClose: false,
  } as never);
  if (!result || typeof result !== "object") return null;
  await game.user?.setFlag(SYSTEM_ID as never, FLAG as never, result as never);
  return result as Situation;
}
