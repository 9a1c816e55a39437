/**
 * Test fixture: the five sample datacards of seed 004 (Fudge Miniatures Battles "Sample characters"), as
 * datacard JSON without a track (add one with boxTrackConfig("miniatures")).
 */
import { newTrack, type Track } from "../../src/rules";
import { boxTrackConfig } from "../../src/rules/fudge";

export const SAMPLE_CARDS = {
  kingKingsley: {
    name: "King Kingsley",
    strength: 2,
    dexterity: 1,
    guts: 1,
    movement: 5,
    weapons: [{ name: "Sword of Smiting", hands: 2, kind: "melee", damage: 5, stat: "strength" }],
    armor: 0, // Kingly Robes
    shield: 0,
    gift: { name: "Noble presence", effect: "peasants make Guts checks at -1 when in melee with the King" },
    fault: { name: "Leader", effect: "all followers make Guts checks at -1 if the King has fallen" },
    terrifying: 0,
  },
  sirKnightly: {
    name: "Sir Knightly",
    strength: 2,
    dexterity: 0,
    guts: 2,
    movement: 6,
    weapons: [{ name: "Longsword", hands: 1, kind: "melee", damage: 2, stat: "strength" }],
    armor: 2, // Plate armor
    shield: 1,
    gift: { name: "Faithful", effect: "+1 to Guts checks when defending the King" },
    fault: { name: "Chivalrous", effect: "Cannot strike a defenseless opponent" },
    terrifying: 0,
  },
  yanniTheYeoman: {
    name: "Yanni the Yeoman",
    strength: 0,
    dexterity: 3,
    guts: 1,
    movement: 5,
    weapons: [
      { name: "Shortbow", hands: 2, kind: "ranged", damage: 3, stat: "none", range: 18 },
      { name: "Dagger", hands: 1, kind: "melee", damage: 0, stat: "strength" },
    ],
    armor: 1, // Leather armor
    shield: 0,
    gift: { name: "Steadfast", effect: "+1 to Guts check when being charged by Terrifying opponent" },
    fault: { name: "Poor melee combatant", effect: 'opponents get +1 to "free" disengagement attack' },
    terrifying: 0,
  },
  knavelyKnave: {
    name: "Knavely Knave",
    strength: 2,
    dexterity: 1,
    guts: 1,
    movement: 5,
    weapons: [{ name: "Sword of Smiting", hands: 2, kind: "melee", damage: 5, stat: "strength" }],
    armor: 0, // Knavely Robes
    shield: 0,
    gift: { name: "Skilled backstabber", effect: "+1 ODF when attacking from behind" },
    fault: { name: "Self-interest", effect: "will flee combat if wounded." },
    terrifying: 0,
  },
  brutasTheBrute: {
    name: "Brutas the Brute",
    strength: 2,
    dexterity: 0,
    guts: 2,
    movement: 6,
    weapons: [{ name: "Longsword", hands: 1, kind: "melee", damage: 2, stat: "strength" }],
    armor: 2, // Plate armor
    shield: 1,
    gift: { name: "Terrifying appearance" },
    fault: { name: "Mercenary", effect: "will flee the combat on any failed Guts check" },
    terrifying: 1,
  },
} as const;

/** A sample datacard ready for the pipeline: the seed's card with an unhurt Miniatures box track. */
export function sampleModel(key: keyof typeof SAMPLE_CARDS): Record<string, unknown> & { track: Track } {
  return {
    ...(JSON.parse(JSON.stringify(SAMPLE_CARDS[key])) as Record<string, unknown>),
    track: newTrack(boxTrackConfig("miniatures")),
  };
}
