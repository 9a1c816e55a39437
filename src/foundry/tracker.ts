/**
 * The combat tracker shows each combatant's wound state in words (src/system/tracker-wound.ts):
 * on v13/v14's `renderCombatTracker` (ApplicationV2 fires render<Class> after each render, with
 * its element), each `li.combatant[data-combatant-id]` row (v13 templates/sidebar/tabs/combat/
 * tracker.hbs) gets a line, as far as this user may see the combatant's actor (its ownership
 * level for him: core's CombatTracker#_prepareTurnContext shows a resource to OBSERVER and above).
 * An actor's change re-renders the tracker that shows him.
 */
import { trackerSight, trackerWound } from "../system/tracker-wound";
import { TEMPLATES } from "../system/handlebars";
import { plainActor, worldRules } from "./bridge";
import { reportError } from "./foundry-util";
import { systemPath, templatesReady } from "./templates";

interface TrackerLike {
  viewed?: Combat.Implementation | null;
  render?: (o?: object) => Promise<unknown>;
}

/** The ownership level this user has on an actor (a GM: OWNER). */
const levelOf = (actor: Actor.Implementation): number =>
  (actor as unknown as { getUserLevel(u: unknown): number | null }).getUserLevel(game.user) ?? 0;

/** Adds the wound line to each combatant row this user may see the actor of. */
export async function onRenderCombatTracker(app: TrackerLike, element: HTMLElement): Promise<void> {
  const combat = app.viewed;
  if (!combat || !element) return;
  await templatesReady();
  const rules = worldRules();
  for (const li of element.querySelectorAll<HTMLElement>("li.combatant[data-combatant-id]")) {
    li.querySelector(".fudge-tracker-wound")?.remove();
    const combatant = combat.combatants.get(li.dataset.combatantId ?? "");
    const actor = (combatant?.actor ?? null) as Actor.Implementation | null;
    if (!actor) continue;
    const view = trackerWound(plainActor(actor), rules, trackerSight(levelOf(actor)));
    if (!view) continue;
    const html = await foundry.applications.handlebars.renderTemplate(
      systemPath(TEMPLATES.trackerWound),
      view as never,
    );
    const holder = li.querySelector(".token-name") ?? li;
    holder.insertAdjacentHTML("beforeend", html);
  }
}

/** Re-renders the sidebar's tracker when an actor it shows changes (his wounds are on it). */
export function onActorChanged(actor: Actor.Implementation): void {
  const tracker = (ui as unknown as { combat?: TrackerLike }).combat;
  const combat = tracker?.viewed;
  if (!tracker?.render || !combat) return;
  if (!combat.combatants.contents.some((c) => c.actor === actor)) return;
  tracker.render().catch((e) => reportError(e)); // a hook cannot wait: a failed render is reported
}
