/**
 * The workspace's browser tests' common steps: a tab signed in as the space's human (by the session
 * cookie, the code sign-in having its own test), its 404s and script errors kept, and waiting for a
 * page to be shown with its reads done.
 */
import type { Browser, Page } from 'playwright-core';
import t from 'tap';
import type { TestService } from './service.js';

/** The two sizes every page is checked at: a desktop and a phone. */
export const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

export interface HumanTab {
  page: Page;
  /** The addresses answered 404 since the tab opened. */
  missing: string[];
  /** The view's uncaught script errors. */
  errors: string[];
}

export async function humanTab(
  browser: Browser,
  svc: TestService,
  cookie: string,
  size: { width: number; height: number },
): Promise<HumanTab> {
  const context = await browser.newContext({
    viewport: size,
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    acceptDownloads: true,
  });
  const [name, value] = cookie.split('=');
  await context.addCookies([{ name: name!, value: value!, url: svc.url }]);
  const page = await context.newPage();
  const tab: HumanTab = { page, missing: [], errors: [] };
  page.on('response', (response) => response.status() === 404 && tab.missing.push(response.url()));
  page.on('pageerror', (error) => tab.errors.push(error.message));
  t.teardown(() => context.close());
  return tab;
}

/** The page shown and its reads done: its heading there, nothing left being read. */
export async function shown(page: Page, heading?: string | RegExp): Promise<void> {
  await (
    heading
      ? page.getByRole('heading', { level: 1, name: heading, exact: typeof heading === 'string' })
      : page.locator('#page h1')
  ).waitFor();
  await page.waitForFunction(
    () => !/Lecture des chiffres|: lecture…|Chargement…/.test(document.getElementById('page')!.innerText),
  );
}
