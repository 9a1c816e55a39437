import type { Browser, LaunchOptions } from "playwright-core";
export declare const CHROMIUM_ARGS: string[];
export declare const DROPPED_PINNED_ARGS: string[];
export declare const SYSTEM_PATHS: string[];
export interface FoundChromium {
  executablePath: string;
  source: "CHROME_PATH" | "pinned" | "system";
  version?: string;
  args: string[];
  /** Environment the browser process needs (the pinned build: LD_LIBRARY_PATH to its own libraries). */
  env?: Record<string, string>;
}
export declare function pinnedSupported(platform?: string, arch?: string): boolean;
export declare function findChromium(env?: NodeJS.ProcessEnv): Promise<FoundChromium | null>;
export declare function launchChromium(options?: LaunchOptions): Promise<FoundChromium & { browser: Browser }>;
