/** A character grown and played: Experience Points and advancement (Fudge §5.2), Fudge Points (§1.36, §4.64). */
export * from "./experience";
export * from "./fudge-points";
