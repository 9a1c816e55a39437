/**
 * The browser tests' own side (oracles, expected cards) reads the rules core in Node: every
 * preset's attack pipeline loads before them (src/rules/presets.ts loads each on demand; the
 * playground page loads them all before its first render).
 */
import { loadAllPresets } from "../../src/rules";

await loadAllPresets();
