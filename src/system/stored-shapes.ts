/**
 * Stored data of every earlier shape of this system (src/system/migrate.ts), as a world's database
 * holds it, with what each must become. Fixtures of the host tests and of the Quench
 * migration batch (pure data: no Foundry globals).
 */
export interface StoredShape {
  /** What this is, for test names. */
  label: string;
  documentName: "Actor" | "Item";
  source: Record<string, unknown>;
  /** Embedded items (actors), stored as they are. */
  items?: Record<string, unknown>[];
  /** Values after loading (dotted paths into `system`), e.g. {"attributes.strength": 1}. */
  expect: Record<string, unknown>;
  /** Values after the world migration (dotted paths into the actor's `flags["fudge-wounds"]`). */
  migratedFlags?: Record<string, unknown>;
  /** After the world migration: the actor's `system.experience` and the GM's record of its awards (data version 8). */
  migratedExperience?: { system: Record<string, unknown>; record: Record<string, unknown> };
  /** Paths into `system` that must be gone. */
  gone?: string[];
  /** The stored data fails validation: the world migration must repair it. */
  invalid?: true;
  /** Cannot be repaired: the migration reports it and does not bump the version. */
  unrepairable?: true;
}

/** A 0.1.0 cinematic track's marks (Very Hurt had two boxes). */
function oldCinematic(veryHurt: unknown[]): Record<string, unknown> {
  return {
    marks: {
      scratch: [null, null, null, null],
      hurt: [null, null],
      veryHurt,
      incapacitated: [null],
      nearDeath: [null],
    },
  };
}

export const STORED_SHAPES: StoredShape[] = [
  {
    label: "0.0.x character: attributes at the top level, ladder words, wounds/trackPreset, HTML biography",
    documentName: "Actor",
    source: {
      name: "Old Leroy",
      type: "character",
      system: {
        strength: "Good",
        damageCapacity: "+1",
        willpower: -1,
        scale: 2,
        fudgePoints: "3",
        wounds: null,
        trackPreset: "heroic",
        biography: "<p>Brave &amp; loud</p>",
      },
    },
    items: [
      {
        name: "Old Sword",
        type: "weapon",
        system: {
          size: "Two-Handed",
          twoHanded: true,
          power: "gun",
          range: 20,
          damage: 3,
          scalePiercing: true,
          description: "<p>Long</p>",
        },
      },
    ],
    expect: {
      "attributes.strength": 1,
      "attributes.damageCapacity": 1,
      "attributes.willpower": -1,
      // 0.0.x had no Mass: none is stored, and the rules read it Fair (src/system/attributes.ts).
      "scale.strength": 2,
      "scale.mass": 2,
      fudgePoints: 3,
      "woundTrack.preset": "cinematic",
      notes: "<p>Brave &amp; loud</p>",
    },
    gone: ["strength", "wounds", "trackPreset", "biography"],
  },
  {
    label: "0.0.x npc: pawn stored as text",
    documentName: "Actor",
    source: { name: "Old Theodora", type: "npc", system: { pawn: "true", dc: "Great" } },
    expect: { pawn: true, "attributes.damageCapacity": 2 },
  },
  {
    label: "0.0.x miniature: str/dex/move, boolean Terrifying",
    documentName: "Actor",
    source: { name: "Old Orc", type: "miniature", system: { str: 2, dex: 1, move: 6, wounds: null, terrifying: true } },
    expect: { strength: 2, dexterity: 1, movement: 6, terrifying: 1 },
    gone: ["str", "dex", "move"],
  },
  {
    label: "0.0.x armor, shield, skill and gift (world items)",
    documentName: "Item",
    source: { name: "Old Mail", type: "armor", system: { armor: 3, bonus: 1 } },
    expect: { value: 3, magic: 1 },
  },
  {
    label: "0.0.x shield size name",
    documentName: "Item",
    source: { name: "Old Buckler", type: "shield", system: { size: "buckler" } },
    expect: { size: "small" },
  },
  {
    label: "0.0.x skill value as a ladder word",
    documentName: "Item",
    source: { name: "Old Sword skill", type: "skill", system: { value: "Great" } },
    expect: { level: 2 },
  },
  {
    label: "0.0.x gift with no effect",
    documentName: "Item",
    source: { name: "Old Luck", type: "gift", system: { effect: "" } },
    expect: { effect: "none" },
  },
  {
    label: "0.1.0 character: HTML notes (kept: notes are HTML again), token bar stored",
    documentName: "Actor",
    source: {
      name: "First Release Hero",
      type: "character",
      system: { notes: "<p>Owes Leroy 3 gp</p><p>Fears <em>rats</em></p>", openBoxes: { value: 3, max: 9 } },
    },
    items: [{ name: "Axe", type: "weapon", system: { description: "<p>Heavy<br>and sharp</p>" } }],
    expect: { notes: "<p>Owes Leroy 3 gp</p><p>Fears <em>rats</em></p>" },
    gone: ["openBoxes"],
  },
  {
    label: "version 3 character: plain-text notes (escaped into paragraphs and line breaks)",
    documentName: "Actor",
    source: {
      name: "Text Notes Hero",
      type: "character",
      system: { notes: "Owes Leroy 3 gp & a favour\nFears <rats>\n\nScript: <script>alert(1)</script>" },
    },
    items: [{ name: "Sling", type: "weapon", system: { description: "Range 20 < 30" } }],
    expect: {
      notes:
        "<p>Owes Leroy 3 gp &amp; a favour<br>Fears &lt;rats&gt;</p><p>Script: &lt;script&gt;alert(1)&lt;/script&gt;</p>",
    },
  },
  {
    label: "version 3 miniature: plain-text notes",
    documentName: "Actor",
    source: { name: "Text Notes Orc", type: "miniature", system: { notes: "Line one\nLine two" } },
    expect: { notes: "<p>Line one<br>Line two</p>" },
  },
  {
    label: "version 3 gift: plain-text description",
    documentName: "Item",
    source: { name: "Text Luck", type: "gift", system: { effect: "none", description: '+1 to "luck" rolls' } },
    expect: { description: '<p>+1 to "luck" rolls</p>' },
  },
  {
    label: "version 4 skill: HTML description stays as it is",
    documentName: "Item",
    source: {
      name: "Rich Sword",
      type: "skill",
      system: { level: 1, description: "<p><strong>Swords</strong></p><ul><li>long</li></ul>" },
    },
    expect: { description: "<p><strong>Swords</strong></p><ul><li>long</li></ul>" },
  },
  {
    label: "0.1.0 cinematic track 4/2/2/1/1 with two Very Hurt marks, and the wound log that wrote the second",
    documentName: "Actor",
    source: {
      name: "Cinematic Leroy",
      type: "character",
      system: { woundTrack: { preset: "cinematic", state: oldCinematic([{ level: "veryHurt" }, { level: "hurt" }]) } },
      flags: {
        "fudge-wounds": {
          woundLog: {
            cinematicCard001: {
              messageId: "cinematicCard001",
              by: "gmUser0000000001",
              at: 1_700_000_000_000,
              before: oldCinematic([{ level: "veryHurt" }, null]),
              after: oldCinematic([{ level: "veryHurt" }, { level: "hurt" }]),
              fudgePointSpent: false,
              undone: false,
              undoneBy: "",
            },
          },
        },
      },
    },
    expect: {
      "woundTrack.state.marks.veryHurt": [{ level: "veryHurt" }],
      "woundTrack.state.marks.incapacitated": [{ level: "hurt" }],
    },
    migratedFlags: {
      "woundLog.cinematicCard001.before.marks.veryHurt": [{ level: "veryHurt" }],
      "woundLog.cinematicCard001.after.marks.veryHurt": [{ level: "veryHurt" }],
      "woundLog.cinematicCard001.after.marks.incapacitated": [{ level: "hurt" }],
    },
  },
  {
    label: "version 7 character: EP awards in its own log, and an `ep` count past what the log lists",
    documentName: "Actor",
    source: {
      name: "Ilse of Version 7",
      type: "character",
      system: {
        attributes: { strength: 1 },
        experience: {
          // 10 + 15 awarded − 6 spent = 19 listed; 23 held: 4 EP of awards evicted from the log.
          ep: 23,
          next: 3,
          log: [
            {
              id: "ep0",
              at: "2026-01-01T00:00:00.000Z",
              type: "award",
              amount: 10,
              by: "gmUser0000000001",
              note: "Session 1",
            },
            {
              id: "ep1",
              at: "2026-01-02T00:00:00.000Z",
              type: "raise",
              trait: "attr.strength",
              kind: "attribute",
              from: 0,
              to: 1,
              cost: 6,
            },
            { id: "ep2", at: "2026-01-03T00:00:00.000Z", type: "award", amount: 15, by: "gmUser0000000001" },
          ],
        },
      },
    },
    expect: { "experience.ep": 23, "attributes.strength": 1 },
    migratedExperience: {
      system: {
        next: 3,
        spentEarlier: 0,
        log: [
          {
            id: "ep1",
            at: "2026-01-02T00:00:00.000Z",
            type: "raise",
            trait: "attr.strength",
            kind: "attribute",
            from: 0,
            to: 1,
            cost: 6,
          },
        ],
      },
      record: {
        next: 0,
        earlier: 4,
        awards: [
          {
            id: "ep0",
            at: "2026-01-01T00:00:00.000Z",
            type: "award",
            amount: 10,
            by: "gmUser0000000001",
            note: "Session 1",
          },
          { id: "ep2", at: "2026-01-03T00:00:00.000Z", type: "award", amount: 15, by: "gmUser0000000001" },
        ],
      },
    },
  },
  {
    label: "invalid: a wound-track preset no version ever had",
    documentName: "Actor",
    source: {
      name: "Broken Track",
      type: "character",
      system: { woundTrack: { preset: "heroicish" }, notes: "keep me" },
    },
    expect: { "woundTrack.preset": "standard", notes: "<p>keep me</p>" },
    invalid: true,
  },
  {
    label: "invalid: a weapon size no version ever had (world item)",
    documentName: "Item",
    source: { name: "Broken Blade", type: "weapon", system: { size: "huge", statBasis: "strength" } },
    expect: { size: "medium", statBasis: "strength" },
    invalid: true,
  },
  {
    label: "invalid: an actor type this system never had",
    documentName: "Actor",
    source: { name: "Vehicle", type: "vehicle", system: { speed: 3 } },
    expect: {},
    invalid: true,
    unrepairable: true,
  },
];
