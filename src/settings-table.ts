/**
 * README's configuration table, written from SETTINGS (src/settings.ts) between two markers:
 * `npm run config:docs` rewrites it, test/foundation/configuration.test.ts fails when the two disagree.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TSchema } from '@sinclair/typebox';
import { ROOT } from './paths.js';
import { SETTINGS } from './settings.js';

export const README = join(ROOT, 'README.md');
const START = '<!-- settings table: written by `npm run config:docs` from src/settings.ts -->';
const END = '<!-- end of the settings table -->';

const cell = (text: string): string => text.replace(/\|/g, '\\|');

function shownDefault(schema: TSchema): string {
  const { shown, default: fallback } = schema as { shown?: string; default?: unknown };
  if (shown !== undefined) return shown;
  return fallback === undefined ? 'unset' : `\`${String(fallback)}\``;
}

/** The table, one row a variable, in the schema's order. */
export function settingsTable(): string {
  const rows = Object.entries(SETTINGS.properties).map(
    ([name, schema]: [string, TSchema]) =>
      `| \`${name}\` | ${cell(shownDefault(schema))} | ${cell(String(schema.description))} |`,
  );
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}

/** README's text between the markers, or null when they are missing. */
export function tableInReadme(text: string): string | null {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  return start < 0 || end < start ? null : text.slice(start + START.length, end).trim();
}

/** Writes the table into README; answers whether it changed. */
export function writeSettingsTable(): boolean {
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the markers ${START} … ${END}`);
  const written = `${text.slice(0, start + START.length)}\n${settingsTable()}\n${text.slice(end)}`;
  if (written === text) return false;
  writeFileSync(README, written);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(writeSettingsTable() ? 'README.md: settings table written' : 'README.md: settings table up to date');
}
