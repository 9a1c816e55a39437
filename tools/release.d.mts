export declare const REQUIRED_FILES: string[];
export declare function githubRepoOf(remote: unknown): string | null;
export declare function changelogHas(changelog: string, version: string): boolean;
export declare function checkRelease(input: {
  repo: string;
  tag: string;
  filled: Record<string, unknown>;
  pkg: Record<string, unknown>;
  lock: Record<string, unknown> | null;
  changelog: string;
  zip: Map<string, Buffer>;
  dist: Map<string, Buffer>;
}): string[];
export declare function main(argv?: string[]): Promise<number>;
