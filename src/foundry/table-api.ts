/**
 * The odds and the duel forecast at the table: `game.system.api` (resolve, odds, forecast) for
 * macros and modules, and a Token HUD button and combat-tracker menu entries that show the GM (and
 * players, by setting) the duel forecast between a combatant and its opponents (the user's
 * targets, or the combatant whose turn it is). Everything is computed by the rules core from live
 * documents (src/system/attack-dialog.ts); nothing here is stored or trusted from a player.
 */
import { exactOdds, loadPreset, resolveAttack, isRulesError, type DuelForecast, type RulesError } from "../rules";
import {
  attackOdds,
  duelRequest,
  forecastLineOf,
  forecastTextOf,
  forecastViewOf,
  mainWeapon,
} from "../system/attack-dialog";
import { ForecastQueue } from "../system/forecast-queue";
import type { ActorDoc, ItemDoc } from "../system/data";
import * as flows from "../system/flows";
import { trackFor } from "../system/combatant";
import { fill } from "../system/i18n";
import { hudWoundControls, trackView } from "../system/view";
import { plainActor, worldRules } from "./bridge";
import { reportError } from "./foundry-util";
import { foundryPort } from "./port";
import { duelGutsSituation } from "../system/guts";
import { liveGutsCircumstances } from "./guts-table";
import type { V14ContextMenuEntry } from "./v14";

type ActorLike = Actor.Implementation | ActorDoc;
const plain = (a: ActorLike): ActorDoc =>
  "documentName" in (a as object) ? plainActor(a as Actor.Implementation) : (a as ActorDoc);

/** `game.system.api` additions. Requests are the rules core's (docs/rules-api.md); actors may be documents. */
export const tableApi = {
  /**
   * Loads a preset's attack pipeline (a Promise): the world's loads at start-up; `resolve` and `odds`
   * of another preset's request need `await game.system.api.loadPreset("volt")` first.
   */
  async loadPreset(preset: string): Promise<void> {
    await loadPreset(preset);
  },
  /** Resolves a request with recorded dice: `resolve({preset, attacker, defender, …}, {attack: [1,0,0,-1], …})`. */
  resolve(request: unknown, dice: Record<string, number[]>) {
    // The rules core's own parser: every recorded slot known and its faces valid, a missing roll named.
    return resolveAttack(request, dice);
  },
  /** Exact odds: a rules-core request, or `(attacker, defender, weaponId?, situation?)` with actors. */
  odds(requestOrAttacker: unknown, defender?: ActorLike, weaponId?: string, situation: Record<string, unknown> = {}) {
    if (!defender) return exactOdds(requestOrAttacker);
    const a = plain(requestOrAttacker as ActorLike);
    const w = weaponId
      ? (((a.items ?? []).find((i) => i._id === weaponId) as ItemDoc<"weapon"> | undefined) ?? null)
      : mainWeapon(a);
    return attackOdds(a, w, plain(defender), worldRules(), situation);
  },
  /**
   * Duel forecast: a rules-core duel request, or two actors (each with its first equipped weapon).
   * On this thread (a Promise: the forecast engine is loaded on demand), so a hard duel blocks
   * the UI until answered, up to its budget; `forecastAsync` runs it in the worker.
   */
  async forecast(requestOrA: unknown, b?: ActorLike) {
    const request = forecastRequest(requestOrA, b);
    const { forecastHere } = await import("../system/forecast-answer");
    return forecastHere(request);
  },
  /** The same forecast in the forecast worker (a Promise; the UI stays live; repeats come from a cache). */
  forecastAsync(requestOrA: unknown, b?: ActorLike) {
    return forecasts.run(forecastRequest(requestOrA, b));
  },
};

function forecastRequest(requestOrA: unknown, b?: ActorLike): unknown {
  return b ? tableDuelRequest(requestOrA as ActorLike, b) : requestOrA;
}

/**
 * The duel request between two actors as the table sees them: Miniatures models carry the
 * circumstances of their Guts checks (their standing, and the live table's for documents:
 * src/system/guts.ts duelGutsSituation). Built on the client that asks, from live documents.
 */
function tableDuelRequest(a: ActorLike, b: ActorLike): Record<string, unknown> {
  const rules = worldRules();
  const [pa, pb] = [plain(a), plain(b)];
  const live = (x: ActorLike) =>
    "documentName" in (x as object) && rules.preset === "miniatures"
      ? liveGutsCircumstances(x as Actor.Implementation)
      : null;
  const gutsSituation =
    rules.preset === "miniatures"
      ? { a: duelGutsSituation(pa, pb, live(a)), b: duelGutsSituation(pb, pa, live(b)) }
      : {};
  return duelRequest(pa, pb, rules, gutsSituation);
}

/**
 * The table's forecasts: run in the forecast worker, one after another (src/system/forecast-queue.ts).
 * A worker that cannot serve is reported once; the forecasts then run on this page within short budgets.
 */
let forecasts = new ForecastQueue({
  onWorkerFailure: (e) =>
    ui.notifications?.warn(
      game.i18n!.format("FUDGE.Forecast.WorkerFailed", {
        error: foundry.utils.escapeHTML(String((e as Error)?.message ?? e)),
      }),
    ),
});
/** Replaces the table's forecast queue (tests: a fake worker, or none); returns the previous one. */
export function useForecastQueue(q: ForecastQueue): ForecastQueue {
  const old = forecasts;
  forecasts = q;
  return old;
}

/** Who sees the duel forecast: the GM always, players when the world allows it (setting forecastForPlayers). */
export const mayForecast = (): boolean => !!game.user?.isGM || worldRules().forecastForPlayers;

/** The actors of the user's targeted tokens, other than `actor`. */
function targetedActors(actor: Actor.Implementation): Actor.Implementation[] {
  return [...((game.user?.targets ?? []) as Iterable<{ actor: Actor.Implementation | null }>)]
    .map((t) => t.actor)
    .filter((x): x is Actor.Implementation => !!x && x !== actor);
}

/**
 * The duel forecast between `actor` and each opponent, one notification each (the Token HUD and
 * the combat tracker both show it this way). The forecasts run in the forecast worker, one after
 * another, so the UI stays live; a "Forecasting …" notice comes first unless every answer is
 * already cached. The requests are built here from live documents. Resolves to the sentences shown.
 */
export async function showForecast(
  actor: Actor.Implementation,
  opponents: Actor.Implementation[] = targetedActors(actor),
): Promise<string[]> {
  if (!opponents.length) {
    ui.notifications!.info(game.i18n!.localize("FUDGE.Forecast.NeedTarget"));
    return [];
  }
  const a = plainActor(actor);
  // A request that cannot be built (bad actor data) is refused like a forecast.
  const duels = opponents.map((t) => {
    const b = plainActor(t);
    try {
      return { b, request: tableDuelRequest(actor, t) as unknown, refused: null };
    } catch (e) {
      if (!isRulesError(e)) throw e;
      return { b, request: null, refused: e };
    }
  });
  if (!duels.every((d) => d.refused || forecasts.has(d.request)))
    ui.notifications!.info(
      game.i18n!.format("FUDGE.Forecast.Running", {
        a: foundry.utils.escapeHTML(a.name),
        b: duels.map((d) => foundry.utils.escapeHTML(d.b.name)).join(", "),
      }),
    );
  const shown: string[] = [];
  const lineText = (bName: string, outcome: DuelForecast | RulesError, interim = false) => {
    const f = forecastViewOf(a.name, bName, outcome, game.i18n!.lang);
    if (f.error) return { error: f.error, text: "" };
    // The line says what the answer is: exact, bounded, or an estimate ("≈ 47% ± 0.9% — estimate from 2,000 simulated duels").
    const line = forecastLineOf(f, (s) => foundry.utils.escapeHTML(s), interim);
    return { error: null, text: forecastTextOf(line, (k, d) => game.i18n!.format(k, d)) };
  };
  for (const { b, request, refused } of duels) {
    let outcome;
    try {
      if (refused) throw refused;
      // A first answer (bounded, or an estimate with its interval) when the exact one is not quick;
      // it fades, the final answer stays.
      outcome = await forecasts.run(request, (first) => {
        const { text } = lineText(b.name, first, true);
        if (!text) return;
        ui.notifications!.info(text);
        shown.push(text);
      });
    } catch (e) {
      if (!isRulesError(e)) {
        reportError(e);
        continue;
      }
      outcome = e;
    }
    const { error, text } = lineText(b.name, outcome);
    if (error) {
      reportError(Object.assign(new Error(error.key), error));
      continue;
    }
    ui.notifications!.info(text, { permanent: true } as never);
    shown.push(text);
  }
  return shown;
}

// ─── Combat tracker: "Duel forecast" on a combatant's context menu ─────────────────────

type CombatantLike = { id?: string | null; actor?: Actor.Implementation | null };
/** The parts of v13's CombatTracker the entries read: the combat it shows. */
export interface TrackerLike {
  viewed?: { combatants: { get(id: string): CombatantLike | undefined }; combatant?: CombatantLike | null } | null;
}

/** Marks our entries, so that a second hook name firing for the same menu adds nothing twice. */
const FORECAST_ENTRY = "fudgeForecast";

/**
 * Adds "Duel forecast against the combatant whose turn it is" and "… against your targets" to a
 * combatant's menu (v13: `getCombatTrackerContextOptions`, fired by the tracker's
 * `_createContextMenu` for each class of its inheritance chain). The menu is built once, so each
 * entry decides when it is shown (GM, or players by setting; a combatant with an actor; an
 * opponent) and finds its combatant from the row (`li.dataset.combatantId`). v13 reads
 * {name, icon, condition, callback(li)}; v14 {label, icon, visible, onClick(event, li)}.
 */
export function onCombatTrackerContextOptions(app: TrackerLike, entries: unknown[]): void {
  if (!Array.isArray(entries) || entries.some((e) => (e as Record<string, unknown>)?.[FORECAST_ENTRY])) return;
  const combatantOf = (li: HTMLElement) => app.viewed?.combatants.get(li.dataset.combatantId ?? "");
  const actorOf = (li: HTMLElement) => combatantOf(li)?.actor ?? null;
  /** The actor of the combatant whose turn it is, unless that is this row's combatant. */
  const current = (li: HTMLElement) => {
    const turn = app.viewed?.combatant;
    const mine = combatantOf(li);
    return turn && mine && turn.id !== mine.id ? (turn.actor ?? null) : null;
  };
  const v14 = (game.release?.generation ?? 13) >= 14;
  const entry = (key: string, opponents: (li: HTMLElement, actor: Actor.Implementation) => Actor.Implementation[]) => {
    const visible = (li: HTMLElement) => {
      const actor = actorOf(li);
      return mayForecast() && !!actor && opponents(li, actor).length > 0;
    };
    const run = async (li: HTMLElement): Promise<string[]> => {
      const actor = actorOf(li);
      return actor ? showForecast(actor, opponents(li, actor)) : [];
    };
    const v14Entry: V14ContextMenuEntry = {
      label: key,
      icon: "fa-solid fa-scale-balanced",
      visible,
      onClick: (_e: Event, li: HTMLElement) => run(li),
    };
    return v14
      ? { [FORECAST_ENTRY]: true, ...v14Entry }
      : {
          [FORECAST_ENTRY]: true,
          name: key,
          icon: '<i class="fa-solid fa-scale-balanced"></i>',
          condition: visible,
          callback: run,
        };
  };
  entries.push(
    entry("FUDGE.Forecast.AgainstCurrent", (li, actor) =>
      [current(li)].filter((x): x is Actor.Implementation => !!x && x !== actor),
    ),
    entry("FUDGE.Forecast.AgainstTargets", (_li, actor) => targetedActors(actor)),
  );
}

/**
 * Token HUD wound controls: "+" marks a level's first open box, "−" clears its last marked box,
 * through the sheet's own toggleWoundBox flow (and its permission check).
 */
function woundPanel(actor: Actor.Implementation, onClicked: (key: string) => void): HTMLElement {
  const panel = document.createElement("div");
  panel.className = "fudge-wounds fudge-hud-wounds";
  const view = trackView(() => trackFor(plainActor(actor), worldRules()), actor.isOwner);
  const fmt = (k: string, p: Record<string, unknown>) => fill(game.i18n!.localize(k), p, (v) => game.i18n!.localize(v));
  for (const [i, c] of hudWoundControls(view).entries()) {
    const row = document.createElement("div");
    row.className = "fudge-hud-row";
    const label = document.createElement("span");
    label.textContent = fmt(c.labelKey, c.labelParams);
    row.append(label);
    for (const [sign, ref, key] of [
      ["+", c.addRef, "FUDGE.Hud.AddWound"],
      ["\u2212", c.clearRef, "FUDGE.Hud.ClearWound"],
    ] as const) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = sign;
      b.dataset.tooltip = game.i18n!.format(key, { level: label.textContent ?? "" });
      b.dataset.fudgeHud = `${i}${sign}`;
      b.setAttribute("aria-label", b.dataset.tooltip);
      b.disabled = !ref;
      // The sheet's own box toggle (the sheet action table), with its permission check and write queue.
      b.dataset.action = c.action;
      if (ref) b.dataset.ref = ref;
      // What the button asks, read again by the writer from the track as it is then (writes.ts toggleBox).
      b.dataset.level = c.key;
      b.dataset.mark = sign === "+" ? "true" : "false";
      b.addEventListener("click", (ev) => {
        ev.preventDefault();
        ev.stopPropagation();
        onClicked(b.dataset.fudgeHud ?? "");
        flows.runSheetAction(foundryPort(), flows.clickOf(b, actor.uuid)).catch((e) => reportError(e, actor.name)); // a listener cannot wait: a refused change is reported
      });
      row.append(b);
    }
    panel.append(row);
  }
  return panel;
}

/** A Token HUD icon button (Font Awesome icon, localized tooltip and label). */
function hudButton(
  cls: string,
  icon: string,
  tooltipKey: string,
  onClick: (button: HTMLButtonElement) => void,
): HTMLButtonElement {
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

type HudLike = { object?: { actor?: Actor.Implementation | null } | null };

/**
 * Which token's wound panel is open in this client's Token HUD, and which of its buttons was
 * pressed last. An actor update re-renders an open HUD (TokenDocument#_onRelatedUpdate) and
 * drops what was injected: the panel is rebuilt from this on every render, with the live track.
 */
const openPanels = new WeakMap<object, { token: object; focus: string | null }>();

/** Token HUD: wound controls for the token's owners, the duel forecast for the GM (v13 passes an HTMLElement). */
export function onRenderTokenHUD(hud: HudLike, html: HTMLElement): void {
  const actor = hud.object?.actor;
  const col = html.querySelector(".col.right");
  if (!actor || !col) return;
  const open = openPanels.get(hud);
  // The HUD now shows another token: its panel starts closed.
  if (open && open.token !== hud.object) openPanels.delete(hud);
  if (actor.isOwner) {
    const panelFor = () =>
      woundPanel(actor, (key) => {
        const state = openPanels.get(hud);
        if (state) state.focus = key;
      });
    const toggle = hudButton("fudge-hud-wounds-toggle", "fa-heart-crack", "FUDGE.Hud.Wounds", (button) => {
      const shown = button.parentElement?.querySelector(".fudge-hud-wounds");
      button.setAttribute("aria-expanded", String(!shown));
      if (shown) {
        shown.remove();
        openPanels.delete(hud);
      } else {
        button.after(panelFor());
        openPanels.set(hud, { token: hud.object!, focus: null });
      }
    });
    col.append(toggle);
    const state = openPanels.get(hud);
    toggle.setAttribute("aria-expanded", String(!!state));
    if (state) {
      const panel = panelFor();
      toggle.after(panel);
      // Keyboard focus stays on the button that was pressed before the re-render.
      if (state.focus)
        panel.querySelector<HTMLButtonElement>(`[data-fudge-hud="${state.focus}"]:not([disabled])`)?.focus();
    }
  }
  if (mayForecast())
    col.append(
      hudButton("fudge-forecast", "fa-scale-balanced", "FUDGE.Forecast.Button", () => {
        showForecast(actor).catch((e) => reportError(e)); // a listener cannot wait: a failure is reported
      }),
    );
}
