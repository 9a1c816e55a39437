/**
 * The odds and the duel forecast at the table: `game.system.api` (resolve, odds, forecast) for
 * macros and modules, and a Token HUD button that shows the GM (and players, by setting) the
 * duel forecast between the token and each of the user's targets. Everything is computed by the rules core from live
 * documents (src/system/attack-dialog.ts); nothing here is stored or trusted from a player.
 */
import { exactOdds } from "../rules/odds";
import { duelForecast } from "../rules/forecast";
import { pipelineFor } from "../rules/pipeline";
import { attackOdds, duelRequest, forecastView, mainWeapon } from "../system/attack-dialog";
import type { ActorDoc, ItemDoc } from "../system/data";
import * as actions from "../system/actions";
import { trackFor } from "../system/combatant";
import { fill } from "../system/i18n";
import { hudWoundControls, trackView } from "../system/view";
import { plainActor, updateActor, worldRules } from "./bridge";
import { reportError, userRef } from "./foundry-util";

type ActorLike = Actor.Implementation | ActorDoc;
const plain = (a: ActorLike): ActorDoc => ("documentName" in (a as object) ? plainActor(a as Actor.Implementation) : (a as ActorDoc));

/** `game.system.api` additions. Requests are the rules core's (docs/rules-api.md); actors may be documents. */
export const tableApi = {
  /** Resolves a request with recorded dice: `resolve({preset, attacker, defender, …}, {attack: [1,0,0,-1], …})`. */
  resolve(request: unknown, dice: Record<string, number[]>) {
    const p = pipelineFor((request as { preset?: unknown })?.preset);
    return p.resolve(p.parseRequest(request), (id) => dice[id] ?? []);
  },
  /** Exact odds: a rules-core request, or `(attacker, defender, weaponId?, situation?)` with actors. */
  odds(requestOrAttacker: unknown, defender?: ActorLike, weaponId?: string, situation: Record<string, unknown> = {}) {
    if (!defender) return exactOdds(requestOrAttacker);
    const a = plain(requestOrAttacker as ActorLike);
    const w = weaponId ? ((a.items ?? []).find((i) => i._id === weaponId) as ItemDoc<"weapon"> | undefined) ?? null : mainWeapon(a);
    return attackOdds(a, w, plain(defender), worldRules(), situation);
  },
  /** Duel forecast: a rules-core duel request, or two actors (each with its first equipped weapon). */
  forecast(requestOrA: unknown, b?: ActorLike) {
    if (!b) return duelForecast(requestOrA);
    return duelForecast(duelRequest(plain(requestOrA as ActorLike), plain(b), worldRules()));
  },
};

/** The duel forecast between a token's actor and each of the user's targets, as a notification. */
function showForecast(actor: Actor.Implementation): void {
  const targets = [...((game.user?.targets ?? []) as Iterable<{ actor: Actor.Implementation | null }>)].map((t) => t.actor).filter((x): x is Actor.Implementation => !!x && x !== actor);
  if (!targets.length) return void ui.notifications!.info(game.i18n!.localize("FUDGE.Forecast.NeedTarget"));
  const rules = worldRules();
  for (const t of targets) {
    const f = forecastView(plainActor(actor), plainActor(t), rules);
    if (f.error) {
      reportError(Object.assign(new Error(f.error.key), f.error));
      continue;
    }
    const text = game.i18n!.format(f.exchangesText ? "FUDGE.Forecast.Line" : "FUDGE.Forecast.LineStalemate", {
      a: foundry.utils.escapeHTML(f.aName),
      b: foundry.utils.escapeHTML(f.bName),
      aWins: f.aWinsText,
      bWins: f.bWinsText,
      exchanges: f.exchangesText,
      stalemate: f.stalemateText,
    });
    ui.notifications!.info(text, { permanent: true } as never);
  }
}

/**
 * Token HUD wound controls: "+" marks a level's first open box, "−" clears its last marked box,
 * through the sheet's own toggleWoundBox action (and its permission check).
 */
function woundPanel(actor: Actor.Implementation): HTMLElement {
  const panel = document.createElement("div");
  panel.className = "fudge-wounds fudge-hud-wounds";
  const view = trackView(() => trackFor(plainActor(actor), worldRules()), actor.isOwner);
  const fmt = (k: string, p: Record<string, unknown>) => fill(game.i18n!.localize(k), p, (v) => game.i18n!.localize(v));
  for (const c of hudWoundControls(view)) {
    const row = document.createElement("div");
    row.className = "fudge-hud-row";
    const label = document.createElement("span");
    label.textContent = fmt(c.labelKey, c.labelParams);
    row.append(label);
    for (const [sign, ref, key] of [["+", c.addRef, "FUDGE.Hud.AddWound"], ["\u2212", c.clearRef, "FUDGE.Hud.ClearWound"]] as const) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = sign;
      b.dataset.tooltip = game.i18n!.format(key, { level: label.textContent ?? "" });
      b.setAttribute("aria-label", b.dataset.tooltip);
      b.disabled = !ref;
      b.addEventListener("click", async (ev) => {
        ev.preventDefault();
        ev.stopPropagation();
        try {
          await updateActor(actor, actions.toggleWoundBox(plainActor(actor), ref!, worldRules(), userRef()));
        } catch (e) {
          reportError(e, actor.name);
        }
      });
      row.append(b);
    }
    panel.append(row);
  }
  return panel;
}

/** A Token HUD icon button (Font Awesome icon, localized tooltip and label). */
function hudButton(cls: string, icon: string, tooltipKey: string, onClick: (button: HTMLButtonElement) => void): HTMLButtonElement {
  const button = document.createElement("button");
  button.type = "button";
  button.className = `control-icon ${cls}`;
  button.dataset.tooltip = game.i18n!.localize(tooltipKey);
  button.setAttribute("aria-label", button.dataset.tooltip);
  button.innerHTML = `<i class="fa-solid ${icon}" inert></i>`;
  button.addEventListener("click", (ev) => {
    ev.preventDefault();
    ev.stopPropagation();
    onClick(button);
  });
  return button;
}

/** Token HUD: wound controls for the token's owners, the duel forecast for the GM (v13 passes an HTMLElement). */
export function onRenderTokenHUD(hud: { object?: { actor?: Actor.Implementation | null } }, html: HTMLElement): void {
  const actor = hud.object?.actor;
  const col = html.querySelector(".col.right");
  if (!actor || !col) return;
  if (actor.isOwner)
    col.append(
      hudButton("fudge-hud-wounds-toggle", "fa-heart-crack", "FUDGE.Hud.Wounds", (toggle) => {
        const open = toggle.parentElement?.querySelector(".fudge-hud-wounds");
        if (open) open.remove();
        else toggle.after(woundPanel(actor));
      }),
    );
  if (game.user?.isGM || worldRules().forecastForPlayers) col.append(hudButton("fudge-forecast", "fa-scale-balanced", "FUDGE.Forecast.Button", () => showForecast(actor)));
}
