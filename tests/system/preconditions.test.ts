/**
 * Preconditions, not dry runs: each action's explicit check (canHeal, canRecover, canRollTrait,
 * canGutsCheck, canDefend) disables its button with the reason, and its flow refuses with it
 * before any dialog opens and before any die is rolled (the playground's port, counting the dice).
 */
import { describe, expect, it } from "vitest";
import { Store, type PlainDoc, type PlaygroundState } from "../../playground/store";
import { parseDice } from "../../playground/dice";
import { playgroundPort } from "../../playground/port";
import * as flows from "../../src/system/flows";
import { canGutsCheck, canHeal, canRecover, canRollTrait, canDefend, startAttack } from "../../src/system/actions";
import { actorSheetContext } from "../../src/system/sheet";
import { trackFor } from "../../src/system/combatant";
import { applyWound } from "../../src/rules";
import type { ActorDoc, WorldRules } from "../../src/system/data";
import { PLAYER1, PLAYER2, leroy, rulesFor, theodora } from "./fixtures";
import { testPage } from "./playground-page";

function withState<T extends ActorDoc>(actor: T, state: unknown): T {
  const sys = actor.system as unknown as { woundTrack: Record<string, unknown> };
  return { ...actor, system: { ...sys, woundTrack: { ...sys.woundTrack, state } } } as unknown as T;
}
const wounded = <T extends ActorDoc>(actor: T, rules: WorldRules, wound: Record<string, unknown>): T =>
  withState(actor, applyWound(trackFor(actor, rules), wound).track.state);

/** A playground world of these actors, its one user `user` (Leroy's owner is player1). */
function world(preset: string, actors: ActorDoc[], user = PLAYER1): Store {
  const state: PlaygroundState = {
    version: 1,
    preset,
    theme: "light",
    settings: { preset },
    actors: actors.map((a) => structuredClone(a) as unknown as PlainDoc),
    messages: [],
    open: [],
    targets: [],
    user: { id: user.id, name: user.id, isGM: user.isGM },
  };
  return new Store(() => state, null, 0);
}

describe("a button is disabled with its precondition's reason", () => {
  const volt = rulesFor("volt");
  const button = (actor: ActorDoc, action: string, heal?: string) =>
    actorSheetContext(actor, volt, { editable: true, owner: true }).healing.find(
      (b) => b.action === action && (heal === undefined || b.data.heal === heal),
    )!;

  it("Volt: Recovery — no Injury, no Injury recovery roll; an Injury, the button is live", () => {
    expect(button(leroy(), "heal", "injuryRecovery").blocked?.key).toBe("FUDGE.Volt.Error.NoInjuryToRecover");
    expect(canHeal(leroy(), "injuryRecovery", volt)?.key).toBe("FUDGE.Volt.Error.NoInjuryToRecover");
    const hurt = withState(leroy(), { marks: { 8: "injury" } });
    expect(button(hurt, "heal", "injuryRecovery").blocked).toBeNull();
    expect(button(hurt, "heal", "rest").blocked).toBeNull();
  });

  it("Volt: Recover is an action — one who cannot act cannot Recover", () => {
    const out = withState(leroy(), { marks: { 11: "stun" } });
    expect(button(out, "recover").blocked?.key).toBe("FUDGE.Volt.Error.RecoverCannotAct");
    expect(canRecover(out, volt)?.key).toBe("FUDGE.Volt.Error.RecoverCannotAct");
    expect(button(leroy(), "recover").blocked).toBeNull();
  });

  it("each check answers the permission too", () => {
    const fudge = rulesFor("fudge");
    expect(canHeal(leroy(), "scratches", fudge, PLAYER2)?.key).toBe("FUDGE.Error.NotPermitted");
    expect(canHeal(leroy(), "scratches", fudge, PLAYER1)).toBeNull();
    expect(canRollTrait(leroy(), "attributes.strength", fudge, PLAYER2)?.key).toBe("FUDGE.Error.NotPermitted");
    expect(canRollTrait(leroy(), "attributes.nerve", fudge, PLAYER1)?.key).toBe("FUDGE.Error.UnknownTrait");
    expect(canGutsCheck(leroy(), PLAYER1)?.key).toBe("FUDGE.Error.NotMiniature");
    const card = startAttack(theodora(), null, [leroy()], {}, { attack: [0, 0, 0, 0] }, fudge, PLAYER2);
    expect(canDefend(card, leroy(), PLAYER2)?.key).toBe("FUDGE.Error.NotYoursToDefend");
    expect(canDefend(card, leroy(), PLAYER1)).toBeNull();
  });
});

describe("a flow refuses before any dialog and any die", () => {
  /** Runs a sheet click on Leroy; resolves to the refusal's key, the dialogs shown and the dice left. */
  async function refused(store: Store, action: string, data: Record<string, string>) {
    const dice = parseDice("1,1,1,1,1,1,1,1");
    const page = testPage();
    const key = await flows.runSheetAction(playgroundPort(store, dice, page), { action, doc: "leroy", data }).then(
      () => "none",
      (e: { key?: string }) => e.key ?? String(e),
    );
    return { key, dialogs: page.dialogs.length, diceLeft: dice.remaining() };
  }

  it("Recover by a Volt character who cannot act", async () => {
    const store = world("volt", [withState(leroy(), { marks: { 11: "stun" } })]);
    expect(await refused(store, "recover", {})).toEqual({
      key: "FUDGE.Volt.Error.RecoverCannotAct",
      dialogs: 0,
      diceLeft: 8,
    });
  });

  it("a trait roll by an Incapacitated character (Fudge §4.57), and by a user who does not own him", async () => {
    const fudge = rulesFor("fudge");
    const out = world("fudge", [wounded(leroy(), fudge, { level: "incapacitated" })]);
    expect(await refused(out, "rollTrait", { trait: "attributes.strength" })).toEqual({
      key: "FUDGE.Error.CannotAct",
      dialogs: 0,
      diceLeft: 8,
    });
    const notHis = world("fudge", [leroy()], PLAYER2);
    expect((await refused(notHis, "rollTrait", { trait: "attributes.strength" })).key).toBe("FUDGE.Error.NotPermitted");
  });

  it("a healing roll answered without a healer (a bare number is no healer): refused after the dialog, no die is rolled", async () => {
    const store = world("fudge", [leroy()]);
    const dice = parseDice("1,1,1,1");
    const page = testPage(() => ({ skill: "40" }));
    await expect(
      flows.runSheetAction(playgroundPort(store, dice, page), { action: "heal", doc: "leroy", data: { heal: "roll" } }),
    ).rejects.toMatchObject({ key: "FUDGE.Error.Heal.NoHealer" });
    expect([page.dialogs.length, dice.remaining()]).toEqual([1, 4]);
  });

  it("Check Guts on a character (only a miniature checks Guts)", async () => {
    const store = world("fudge", [leroy()]);
    expect(await refused(store, "gutsCheck", {})).toEqual({ key: "FUDGE.Error.NotMiniature", dialogs: 0, diceLeft: 8 });
  });

  it("Defend by a user who does not own the defender: refused before the defence die", async () => {
    const fudge = rulesFor("fudge");
    const store = world("fudge", [leroy(), theodora()], PLAYER2);
    const card = startAttack(theodora(), null, [leroy()], {}, { attack: [0, 0, 0, 0] }, fudge, PLAYER2);
    store.updateDocs({}, (d) =>
      d.messages.push({ _id: "card", type: "attackCard", system: card as never, timestamp: 1 } as never),
    );
    const dice = parseDice("1,1,1,1");
    await expect(
      flows.performCardAction(playgroundPort(store, dice, testPage()), "card", "defend", "leroy"),
    ).rejects.toMatchObject({ key: "FUDGE.Error.NotYoursToDefend" });
    expect(dice.remaining()).toBe(4);
  });
});
