/**
 * The GM relay: payload validation, routing of a click (here / GM / refused), and the GM-side
 * re-check — the relayed action runs as the requesting user and src/system refuses what that
 * user may not do.
 */
import { describe, expect, it } from "vitest";
import { parseRelayPayload, requesterRef, routeCardAction } from "../../src/system/relay";
import * as actions from "../../src/system/actions";
import {
  defaultAttackCardData,
  defaultCharacterData,
  defaultWorldRules,
  type ActorDoc,
  type AttackCardData,
} from "../../src/system/data";

const MSG = "AbCdEfGhIjKlMnOp";
const UUID = "Actor.QrStUvWxYz012345";
const WHO = { requestId: "rEqUeStReQuEsT01", userId: "player1player1p1" };

describe("parseRelayPayload", () => {
  it("accepts a well-formed request", () => {
    expect(parseRelayPayload({ messageId: MSG, action: "apply", targetId: UUID, ...WHO })).toEqual({
      messageId: MSG,
      action: "apply",
      targetId: UUID,
      force: false,
      spendFudgePoint: false,
      defenceSkillId: "",
      defenceAllOut: false,
      defenceModifier: 0,
      ...WHO,
    });
    // Defend: the defender's choices, flat and bounded (a skill id, yes/no, a modifier within ±10).
    const defend = { messageId: MSG, action: "defend", targetId: UUID, ...WHO };
    expect(
      parseRelayPayload({ ...defend, defenceSkillId: "abcDEF0123456789", defenceAllOut: true, defenceModifier: -2 }),
    ).toMatchObject({ defenceSkillId: "abcDEF0123456789", defenceAllOut: true, defenceModifier: -2 });
    for (const bad of [
      { defenceSkillId: "a.b" },
      { defenceAllOut: "yes" },
      { defenceModifier: 11 },
      { defenceModifier: 0.5 },
    ])
      expect(parseRelayPayload({ ...defend, ...bad })).toBeNull();
    expect(
      parseRelayPayload({ messageId: MSG, action: "apply", targetId: UUID, spendFudgePoint: true, ...WHO })
        ?.spendFudgePoint,
    ).toBe(true);
    expect(
      parseRelayPayload({
        messageId: MSG,
        action: "undo",
        targetId: `Scene.aaaaaaaaaaaaaaaa.Token.bbbbbbbbbbbbbbbb.${UUID}`,
        force: true,
        ...WHO,
      })?.force,
    ).toBe(true);
  });

  const bad: unknown[] = [
    "not an object",
    null,
    [MSG],
    { messageId: "short", action: "apply", targetId: UUID },
    { messageId: MSG, action: "delete", targetId: UUID },
    { messageId: MSG, action: "apply", targetId: UUID, spendFudgePoint: "yes" },
    { messageId: MSG, action: "apply", targetId: "Item.QrStUvWxYz012345" },
    { messageId: MSG, action: "apply", targetId: "Actor.x; drop" },
    { messageId: MSG, action: "apply", targetId: UUID, force: "yes", ...WHO },
    { messageId: MSG, action: "apply", targetId: UUID }, // no request id: nobody to confirm
    { messageId: MSG, action: "apply", targetId: UUID, ...WHO, requestId: "x" },
    { messageId: MSG, action: "apply", targetId: UUID, ...WHO, userId: 7 },
  ];
  it.each(bad.map((b) => [b]))("refuses %j", (payload) => {
    expect(parseRelayPayload(payload)).toBeNull();
  });

  it("the requester comes from Foundry's sender, and is never promoted", () => {
    expect(requesterRef({ id: "p1p1p1p1p1p1p1p1", isGM: false })).toEqual({ id: "p1p1p1p1p1p1p1p1", isGM: false });
    expect(requesterRef({ id: "p1p1p1p1p1p1p1p1" })).toEqual({ id: "p1p1p1p1p1p1p1p1", isGM: false });
    expect(requesterRef(null)).toBeNull();
    expect(requesterRef({ id: "x" })).toBeNull();
  });
});

const P1 = { id: "player1player1pl1", isGM: false }; // attacker's owner, author of the card
const P2 = { id: "player2player2pl2", isGM: false }; // defender's owner
const P3 = { id: "player3player3pl3", isGM: false }; // owns neither
const GM = { id: "gamemastergamema", isGM: true };

function actor(id: string, owner: string): ActorDoc {
  return {
    _id: id,
    uuid: `Actor.${id}`,
    name: id,
    type: "character",
    system: defaultCharacterData(),
    items: [],
    ownership: { default: 0, [owner]: 3 },
  };
}
const attacker = actor("attackerAAAAAAAA", P1.id);
const defender = actor("defenderDDDDDDDD", P2.id);

function card(): AttackCardData {
  return {
    ...defaultAttackCardData(),
    userId: P1.id,
    attackerId: attacker.uuid!,
    attackerName: attacker.name,
    targets: [
      {
        actorId: defender.uuid!,
        name: defender.name,
        defend: "pending",
        defendDice: null,
        defendUserId: null,
        request: null,
        dice: {},
        resolution: null,
        applied: [],
      },
    ],
  };
}

describe("routing a card click", () => {
  const route = (action: "defend" | "apply" | "undo", user: actions.UserRef, authorOfCard: boolean) =>
    routeCardAction(actions.authorize(action, user, defender, card(), card().targets[0]), authorOfCard, user.isGM);

  it("the attacker applies to a foe he does not own: through the GM", () => {
    expect(route("apply", P1, true)).toBe("relay");
  });
  it("the defender's owner defends on a card someone else posted: through the GM (the card is not his)", () => {
    expect(route("defend", P2, false)).toBe("relay");
  });
  it("the defender's owner applies to his own character: the card is not his, so through the GM", () => {
    expect(route("apply", P2, false)).toBe("relay");
  });
  it("a player who owns neither side is refused at once", () => {
    expect(route("apply", P3, false)).toBe("refuse");
    expect(route("defend", P3, false)).toBe("refuse");
  });
  it("the attacker may not roll the defender's defence", () => {
    expect(route("defend", P1, true)).toBe("refuse");
  });
  it("the GM acts directly", () => {
    expect(route("apply", GM, false)).toBe("local");
    expect(route("defend", GM, false)).toBe("local");
  });
});

describe("the GM side re-checks as the requesting user", () => {
  const rules = defaultWorldRules();
  it("a forged apply from a player who owns neither side is refused even when relayed", () => {
    expect(() => actions.applyDamage(card(), defender, P3, rules, { relayed: true })).toThrow(
      expect.objectContaining({ key: "FUDGE.Error.NotYoursToApply" }),
    );
  });
  it("a forged defence by the attacker is refused even when relayed", () => {
    expect(() => actions.defend(card(), defender, [0, 0, 0, 0], P1, { relayed: true })).toThrow(
      expect.objectContaining({ key: "FUDGE.Error.NotYoursToDefend" }),
    );
  });
  it("without the relay flag the attacker's apply on a foe is not done locally", () => {
    expect(() => actions.applyDamage(card(), defender, P1, rules)).toThrow(
      expect.objectContaining({ key: "FUDGE.Error.NeedsRelay" }),
    );
  });
});
