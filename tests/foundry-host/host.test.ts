// @vitest-environment happy-dom
/**
 * The host itself behaves as FOUNDRY-V13.md says (so tests of the system on it mean something).
 */
import { describe, expect, it } from "vitest";
import { gmAndPlayer, ROLES, startWorld } from "./index";
import { table, actorOn } from "./table";

describe("foundry-host: users and clients", () => {
  it("each user has his own client: game.user differs across awaits", async () => {
    const { gm, player } = await gmAndPlayer();
    const seen = await Promise.all([
      gm.run(async () => {
        await new Promise((r) => setTimeout(r, 5));
        return game.user!.name;
      }),
      player.run(async () => {
        await new Promise((r) => setTimeout(r, 1));
        return game.user!.name;
      }),
    ]);
    expect(seen).toEqual(["Gamemaster", "Player"]);
    expect(gm.run(() => game.users!.activeGM?.id)).toBe(gm.user.id);
    expect(player.run(() => game.user!.isActiveGM)).toBe(false);
  });

  it("the system's init ran on every client (its hooks registered per client)", async () => {
    const { gm, player } = await gmAndPlayer();
    for (const c of [gm, player])
      expect(Object.keys(c.run(() => CONFIG.Actor.dataModels))).toEqual(["character", "npc", "miniature"]);
  });
});

describe("foundry-host: documents", () => {
  it("hooks carry the writing user's id on every client", async () => {
    const t = await table();
    const seen: [string, string][] = [];
    for (const c of [t.gm, t.player])
      c.run(() =>
        Hooks.on("updateActor", (_a: unknown, _c: unknown, _o: unknown, userId: string) =>
          seen.push([game.user!.name!, userId]),
        ),
      );
    await t.player.run(() => actorOn(t.player, t.hero).update({ name: "Leroy II" } as never));
    await t.world.settle();
    expect(seen).toEqual([
      ["Gamemaster", t.ids.player],
      ["Player", t.ids.player],
    ]);
    expect(actorOn(t.gm, t.hero).name).toBe("Leroy II");
  });

  it("a player may not update what he does not own", async () => {
    const t = await table();
    await expect(t.player.run(() => actorOn(t.player, t.foe).update({ name: "x" } as never))).rejects.toThrow(
      /lacks permission/,
    );
  });

  it("a message belongs to its author: a player cannot forge the author, only author or GM may update", async () => {
    const t = await table();
    const m = await t.player.run(() => ChatMessage.create({ content: "hi", author: t.ids.gm } as never));
    expect((m as unknown as { author: { id: string } }).author.id).toBe(t.ids.player);
    const onGm = t.gm.game.messages.get(m!.id!)!;
    await t.gm.run(() => onGm.update({ content: "edited by GM" }));
    const other = await t.gm.run(() => ChatMessage.create({ content: "gm's" } as never));
    await expect(
      t.player.run(() =>
        (t.player.game.messages.get(other!.id!) as unknown as { update(d: object): Promise<unknown> }).update({
          content: "forged",
        }),
      ),
    ).rejects.toThrow(/lacks permission/);
  });

  it("updates are diffed: a no-op update fires no hook", async () => {
    const t = await table();
    let n = 0;
    t.gm.run(() => Hooks.on("updateActor", () => n++));
    await t.gm.run(() => actorOn(t.gm, t.hero).update({ name: "Leroy" } as never));
    expect(n).toBe(0);
  });

  it("latency: two clients' updates interleave after their reads", async () => {
    const t = await table({ latency: 20 });
    const a = t.gm.run(() => actorOn(t.gm, t.hero).update({ "system.fudgePoints": 1 } as never));
    const b = t.player.run(() => actorOn(t.player, t.hero).update({ "system.fudgePoints": 2 } as never));
    // Before the server answers, neither client sees either write.
    expect((actorOn(t.player, t.hero).system as unknown as { fudgePoints: number }).fudgePoints).not.toBe(2);
    await Promise.all([a, b]);
    expect((actorOn(t.gm, t.hero).system as unknown as { fudgePoints: number }).fudgePoints).toBe(2);
  });
});

describe("foundry-host: queries", () => {
  it("User#query runs the handler on the GM's client as handler(data, {timeout}) — no sender", async () => {
    const t = await table();
    const calls: unknown[] = [];
    t.gm.run(
      () =>
        ((CONFIG as unknown as { queries: Record<string, unknown> }).queries["test.echo"] = (
          data: unknown,
          opts: unknown,
        ) => (calls.push([data, opts, game.user!.name]), { ok: true })),
    );
    const reply = await t.player.run(() =>
      game.users!.activeGM!.query("test.echo" as never, { x: 1 } as never, { timeout: 1000 } as never),
    );
    expect(reply).toEqual({ ok: true });
    expect(calls).toEqual([[{ x: 1 }, { timeout: 1000 }, "Gamemaster"]]);
  });
});

describe("foundry-host: data models", () => {
  it("migrateData's return value is ignored; unknown keys are cleaned away by ready; invalid documents are not loaded", async () => {
    const world = await startWorld();
    const gmId = world.addUser("GM", ROLES.GAMEMASTER);
    const ok = world.server.seed("Actor", {
      name: "A",
      type: "character",
      system: { attributes: { strength: 1 }, junk: 1 },
    });
    const bad = world.server.seed("Actor", {
      name: "B",
      type: "character",
      system: { woundTrack: { preset: "no-such-preset" } },
    });
    const gm = await world.connect(gmId);
    const a = gm.game.actors.get(ok)!;
    expect(a.toObject().system).not.toHaveProperty("junk");
    expect(
      (gm.game.data.actors as { _id: string; system: object }[]).find((x) => x._id === ok)!.system,
    ).not.toHaveProperty("junk");
    expect(gm.game.actors.get(bad)).toBeUndefined();
    expect([...gm.game.actors.invalidDocumentIds]).toEqual([bad]);
    expect(gm.game.actors.getInvalid(bad)!.name).toBe("B");
    expect(gm.run(() => fromUuidSync(`Actor.${bad}`))).toBeNull();
  });
});

describe("foundry-host: scenes", () => {
  it("activating a scene is one batch: updateScene fires for both scenes on every client", async () => {
    const t = await table();
    const other = await t.gm.run(() => Scene.create({ name: "Road" } as never));
    const seen: string[] = [];
    for (const c of [t.gm, t.player])
      c.run(() =>
        Hooks.on("updateScene", ((s: { name: string }, ch: { active?: boolean }) =>
          seen.push(`${game.user!.name}:${s.name}:${ch.active}`)) as never),
      );
    await t.gm.run(() => (other as unknown as { activate(): Promise<unknown> }).activate());
    expect(seen.sort()).toEqual([
      "Gamemaster:Road:true",
      "Gamemaster:Tavern:false",
      "Player:Road:true",
      "Player:Tavern:false",
    ]);
  });
});

describe("foundry-host: rolls", () => {
  it("Roll takes queued fixed faces and records who rolled", async () => {
    const t = await table();
    t.world.dice.queue(1, 1, 0, -1, 20);
    const r = await t.player.run(() => new Roll("4dF + 1").evaluate());
    expect(r.total).toBe(2);
    expect(r.dice[0].results.map((x) => x.result)).toEqual([1, 1, 0, -1]);
    const d = await t.gm.run(() => new Roll("1d20").evaluate());
    expect(d.total).toBe(20);
    expect(t.world.rolls.map((x) => x.userId)).toEqual([t.ids.player, t.ids.gm]);
    expect(() => t.gm.run(() => new Roll(undefined as never))).toThrow(/Unresolved StringTerm undefined/);
  });

  it("rolls attach to messages; the roll mode is an option", async () => {
    const t = await table();
    const r = await t.player.run(() => new Roll("4dF").evaluate());
    const m = await t.player.run(() => ChatMessage.create({ content: "x", rolls: [r], rollMode: "gmroll" } as never));
    expect((m as unknown as { whisper: string[] }).whisper).toEqual([]);
    const m2 = await t.player.run(() =>
      ChatMessage.create({ content: "x", rolls: [r] } as never, { rollMode: "gmroll" } as never),
    );
    expect((m2 as unknown as { whisper: string[] }).whisper).toEqual([t.ids.gm]);
    expect((m2 as unknown as { rolls: Roll[] }).rolls[0].dice[0].results).toHaveLength(4);
  });
});

describe("foundry-host: statuses", () => {
  it("toggleStatusEffect creates and removes the status effect", async () => {
    const t = await table();
    const a = actorOn(t.gm, t.foe);
    await t.gm.run(() => a.toggleStatusEffect("prone", { active: true }));
    expect([...a.statuses]).toEqual(["prone"]);
    await t.gm.run(() => a.toggleStatusEffect("prone", { active: false }));
    expect(a.statuses.size).toBe(0);
  });
});

describe("foundry-host: DialogV2 as v13 documents it", () => {
  it("wait: content in a form, render(event, dialog) first, the pressed button's callback(event, button, dialog) result", async () => {
    const { world, player } = await gmAndPlayer();
    const rendered: string[] = [];
    world.answerDialogs((req) => {
      (req.form.querySelector('[name="n"]') as HTMLInputElement).value = "4";
      return "ok";
    });
    const result = await player.run(() =>
      foundry.applications.api.DialogV2.wait({
        window: { title: "T" },
        content: `<input name="n" value="1">`,
        buttons: [
          { action: "other", label: "Other" },
          {
            action: "roll",
            label: "Roll",
            default: true,
            callback: (_e: Event, b: HTMLButtonElement, d: { element: HTMLElement }) => ({
              n: new FormData(b.form!).get("n"),
              inDialog: d.element.contains(b),
            }),
          },
        ],
        render: (e: Event, d: { element: HTMLElement }) =>
          rendered.push(`${e.type}:${!!d.element.querySelector("form [name=n]")}`),
      } as never),
    );
    expect(rendered).toEqual(["render:true"]);
    expect(result).toEqual({ n: "4", inDialog: true });
    // A button without a callback gives its action; a dismissed dialog gives null.
    world.answerDialogs({ button: "other" }, "close");
    const config = { content: "", buttons: [{ action: "other" }, { action: "roll", default: true }] };
    expect(await player.run(() => foundry.applications.api.DialogV2.wait(config as never))).toBe("other");
    expect(await player.run(() => foundry.applications.api.DialogV2.wait(config as never))).toBeNull();
    // prompt: one OK button; confirm: Yes → true, No → false.
    world.answerDialogs("ok", "yes", "no");
    expect(await player.run(() => foundry.applications.api.DialogV2.prompt({ content: "" } as never))).toBe("ok");
    expect(await player.run(() => foundry.applications.api.DialogV2.confirm({ content: "" } as never))).toBe(true);
    expect(await player.run(() => foundry.applications.api.DialogV2.confirm({ content: "" } as never))).toBe(false);
    expect(document.querySelectorAll("dialog").length).toBe(0);
  });
});
