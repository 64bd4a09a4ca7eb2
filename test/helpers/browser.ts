/**
 * Debian's Chromium driven by playwright-core (CI installs it: `apt-get install -y chromium`), one
 * browser per test file, closed when the file ends; and axe-core run in a page or frame.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import t from 'tap';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export async function startBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  t.teardown(() => browser.close());
  return browser;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** axe-core's serious and critical violations in this page or frame (WCAG 2 A and AA rules). */
export async function seriousViolations(target: Page | Frame): Promise<Violation[]> {
  await target.evaluate(axeSource);
  const results = await target.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(
            context: unknown,
            options: unknown,
          ): Promise<{
            violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
          }>;
        };
      }
    ).axe;
    return axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice'] } });
  });
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}
