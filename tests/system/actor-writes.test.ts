/**
 * Issue 28: an actor write relayed to the one writer is a claim — parsed (parseActorWrite, the
 * relay's payload) before anything is touched — and a client that is not the writer relays every
 * card action instead of writing (routeCardAction).
 */
import { describe, expect, it } from "vitest";
import { parseActorWrite } from "../../src/system/flows";
import { parseRelayPayload, requestMatches, routeCardAction } from "../../src/system/relay";

const base = { requestId: "a".repeat(16), userId: "b".repeat(16), targetId: `Actor.${"c".repeat(16)}` };

describe("parseActorWrite", () => {
  it("keeps what each write needs and drops the rest", () => {
    expect(parseActorWrite({ kind: "toggleBox", ref: "hurt:0", mark: true, level: "hurt", extra: 1 })).toEqual({
      kind: "toggleBox",
      ref: "hurt:0",
      mark: true,
      level: "hurt",
    });
    expect(parseActorWrite({ kind: "recover", black: 3, white: 17 })).toEqual({ kind: "recover", black: 3, white: 17 });
    expect(
      parseActorWrite({
        kind: "heal",
        type: "roll",
        inputs: { skill: 1 },
        dice: { fudge: [1, 0, -1, 0], d20: [1, 1] },
      }),
    ).toMatchObject({ kind: "heal", dice: { fudge: [1, 0, -1, 0] } });
  });
  it.each([
    ["an unknown kind", { kind: "setState", state: {} }],
    ["a HUD row without what it asks", { kind: "toggleBox", ref: "x", level: "hurt" }],
    ["Fudge dice out of range", { kind: "heal", type: "roll", inputs: {}, dice: { fudge: [2, 0, 0, 0], d20: [1, 1] } }],
    ["a d20 of 21", { kind: "recover", black: 21, white: 1 }],
    [
      "a Guts roll of five dice",
      { kind: "gutsCheck", trigger: { reason: "other", target: 0, turn: 1 }, faces: [0, 0, 0, 0, 0] },
    ],
    ["a huge payload", { kind: "field", path: "notes", raw: "x".repeat(5_000) }],
    ["no object", "toggleBox"],
    ["a Fudge Point of two levels (Fudge §1.36: one)", { kind: "rollFudgePoint", messageId: "m1", direction: 2 }],
    ["a Fudge Point of no direction", { kind: "rollFudgePoint", messageId: "m1", direction: 0 }],
    ["a Fudge Point on no card", { kind: "rollFudgePoint", direction: 1 }],
    ["a Fudge Point's card id too long", { kind: "refundRollFudgePoint", messageId: "m".repeat(65) }],
    ["a Fudge Point's refund with a number for a card", { kind: "refundRollFudgePoint", messageId: 7 }],
    ["a wound's Fudge Point with no level", { kind: "reduceWound" }],
    ["an automatic success with no moment", { kind: "rollAutoSuccess", messageId: "m1" }],
    ["an automatic success on no card", { kind: "rollAutoSuccess", atRoll: true }],
    ["a wound's Fudge Point refund with a spend id too long", { kind: "refundWound", spend: "s".repeat(65) }],
    [
      "an attack card's Fudge Point on a side that is none",
      { kind: "attackFudgePoint", messageId: "m1", side: "gm", direction: 1 },
    ],
    [
      "an attack card's Fudge Point of two levels",
      { kind: "attackFudgePoint", messageId: "m1", side: "attacker", direction: 2 },
    ],
    ["an attack card's Fudge Point refund with no side", { kind: "refundAttackFudgePoint", messageId: "m1" }],
  ])("refuses %s", (_what, w) => {
    expect(parseActorWrite(w)).toBeNull();
  });
  it("a Fudge Point spent on a roll card, and its refund: the card and one level up or down, nothing else", () => {
    expect(parseActorWrite({ kind: "rollFudgePoint", messageId: "m1", direction: -1, by: "someone" })).toEqual({
      kind: "rollFudgePoint",
      messageId: "m1",
      direction: -1,
    });
    expect(parseActorWrite({ kind: "refundRollFudgePoint", messageId: "m1", points: 99 })).toEqual({
      kind: "refundRollFudgePoint",
      messageId: "m1",
    });
    expect(parseActorWrite({ kind: "rollAutoSuccess", messageId: "m1", atRoll: false, result: 6 })).toEqual({
      kind: "rollAutoSuccess",
      messageId: "m1",
      atRoll: false,
    });
    expect(parseActorWrite({ kind: "reduceWound", level: "hurt", to: "scratch" })).toEqual({
      kind: "reduceWound",
      level: "hurt",
    });
    expect(parseActorWrite({ kind: "refundWound", spend: "wound.0.1", points: 5 })).toEqual({
      kind: "refundWound",
      spend: "wound.0.1",
    });
  });
  it("a Fudge Point spent on an attack card's side, and its refund: the card, the side, one level, nothing else", () => {
    expect(
      parseActorWrite({ kind: "attackFudgePoint", messageId: "m1", side: "defender", direction: 1, from: 9 }),
    ).toEqual({ kind: "attackFudgePoint", messageId: "m1", side: "defender", direction: 1 });
    expect(parseActorWrite({ kind: "refundAttackFudgePoint", messageId: "m1", side: "attacker", points: 3 })).toEqual({
      kind: "refundAttackFudgePoint",
      messageId: "m1",
      side: "attacker",
    });
  });
});

describe("the relay carries a write", () => {
  it("a write's payload has no card and a parsed write; a card action carries no write", () => {
    const p = parseRelayPayload({ ...base, messageId: "", action: "write", write: { kind: "kill" } });
    expect(p).toMatchObject({ action: "write", write: { kind: "kill" } });
    expect(parseRelayPayload({ ...base, messageId: "", action: "write", write: { kind: "nope" } })).toBeNull();
    expect(
      parseRelayPayload({ ...base, messageId: "d".repeat(16), action: "write", write: { kind: "kill" } }),
    ).toBeNull();
    expect(
      parseRelayPayload({ ...base, messageId: "d".repeat(16), action: "apply", write: { kind: "kill" } }),
    ).toBeNull();
  });
  it("the stored request must ask for the same write", () => {
    const p = parseRelayPayload({
      ...base,
      messageId: "",
      action: "write",
      write: { kind: "toggleBox", ref: "hurt:0" },
    })!;
    const stored = (write: unknown) => ({
      "fudge-wounds": {
        relayRequests: {
          [base.requestId]: {
            messageId: "",
            action: "write",
            targetId: base.targetId,
            force: false,
            spendFudgePoint: false,
            write,
            at: 1,
          },
        },
      },
    });
    expect(requestMatches(stored({ kind: "toggleBox", ref: "hurt:0" }), p)).not.toBeNull();
    expect(requestMatches(stored({ kind: "toggleBox", ref: "scratch:0" }), p)).toBeNull();
  });
});

describe("routeCardAction with one writer", () => {
  it("a client that is not the writer relays, a player and a second GM alike; a denied player is refused", () => {
    expect(routeCardAction("allow", true, false, false)).toBe("relay");
    expect(routeCardAction("allow", true, true, false)).toBe("relay");
    expect(routeCardAction("deny", true, false, false)).toBe("refuse");
    expect(routeCardAction("allow", true, true, true)).toBe("local");
    // No GM connected: the owner's own card is written here.
    expect(routeCardAction("allow", true, false, true)).toBe("local");
  });
});
