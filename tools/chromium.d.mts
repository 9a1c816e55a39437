import type { Browser, LaunchOptions } from "playwright-core";
export declare const CHROMIUM_ARGS: string[];
export interface FoundChromium {
  executablePath: string;
  source: "CHROME_PATH" | "system" | "@sparticuz/chromium";
  args: string[];
}
export declare function findChromium(env?: NodeJS.ProcessEnv): Promise<FoundChromium | null>;
export declare function launchChromium(options?: LaunchOptions): Promise<FoundChromium & { browser: Browser }>;
