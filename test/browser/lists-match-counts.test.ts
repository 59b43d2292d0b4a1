/**
 * No list is empty while its count says otherwise (issue 36). A walk of every screen of the navigation, against the
 * demo data: where a screen shows a count beside a list (tab badges, "N customers shown", "N invoices here", "3 of
 * 1,051", "N categories", "Show all N", the bell's unread), the rows are there when the count is above zero, and
 * where the count claims to be exact (no "more available"), as many rows as it says. Then the way the transactions
 * grid came back empty for a person: to another screen and back through the sidebar again and again, the grid
 * scrolled to its middle or its end in between, by mouse and by keyboard; after each arrival its rows show.
 */
import type { Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { formatted, tk } from './helpers/i18n';
import { seedInboxAndRules } from './helpers/inbox-rules-data';
import { seedScreensData } from './helpers/screens-data';
import { journeySuite } from './helpers/suite';
import type { UiServer } from './helpers/ui-server';
import type { AppPage } from './pages/app-page';

const journey = journeySuite({}, (ui) => ui.seedDemo());
let ui: UiServer;
let app: AppPage;
let page: Page;

beforeEach(() => {
  ({ ui, app, page } = journey);
});

async function signIn(path: string): Promise<void> {
  const { email, password } = await ui.user();
  await app.open(path);
  await app.signIn(email, password);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const NUMBER = '(\\d[\\d.,\\s\\u00a0\\u202f]*)';
/** A number as the run's locale writes it ("1,051", "1.051", "1 051"), read back. */
const readNumber = (text: string) => Number(text.replace(/\D/g, ''));

/**
 * A pattern for a counted catalogue string (`{{count, num}}`) in the run's language, its number captured: both plural
 * forms, anywhere in a longer text.
 */
function counted(key: string, vars: Record<string, unknown> = {}): RegExp {
  const forms = [1, 987_654].map((count) => {
    const said = tk(key, { ...vars, count });
    const number = formatted(count);
    return escapeRegExp(said).replace(escapeRegExp(number), NUMBER);
  });
  return new RegExp(`(?:${forms.join('|')})`);
}

/** A pattern for a catalogue string whose `holes` (placeholders the screen fills with a number) are captured. */
function said(key: string, holes: string[]): RegExp {
  const marked = tk(key, Object.fromEntries(holes.map((h, i) => [h, `\uE000${i}\uE000`])));
  return new RegExp(escapeRegExp(marked).replace(/\uE000\d+\uE000/g, NUMBER));
}

/** The number a counted text says, or null when `text` is not that text. */
function countIn(text: string, key: string, vars?: Record<string, unknown>): number | null {
  const m = counted(key, vars).exec(text);
  if (!m) return null;
  const n = m.slice(1).find((g) => g !== undefined);
  return n === undefined ? null : readNumber(n);
}

/** What a screen says against what it shows, at one moment. */
interface Reading {
  /** The count shown; null: none shown (yet). */
  count: number | null;
  /** The count is the whole list (nothing more to load), so the rows shown must be as many. */
  exact: boolean;
  rows: number;
  /** Skeletons or a busy list: the rows may still be coming. */
  loading: boolean;
}

/** Empty when the reading is sound, else what is wrong with it. */
function problem(r: Reading): string {
  if (r.loading) return `still loading (count ${r.count}, ${r.rows} rows)`;
  if (r.count === null) return `no count shown (${r.rows} rows)`;
  if (r.count > 0 && r.rows === 0) return `the count says ${r.count}, no rows are shown`;
  if (r.exact && r.rows !== r.count) return `the count says exactly ${r.count}, ${r.rows} rows are shown`;
  return '';
}

/** Waits (briefly) for the screen's rows to agree with its count; fails naming the screen and what it saw. */
async function agrees(screen: string, read: () => Promise<Reading>, timeout = 8_000): Promise<Reading> {
  let last: Reading | undefined;
  await expect
    .poll(
      async () => {
        last = await read();
        return problem(last);
      },
      { timeout, message: `${screen}: the list disagrees with its count` },
    )
    .toBe('');
  return last as Reading;
}

/** A data table's rows (not the skeleton rows), and whether it is still loading. */
async function tableRows(table: Locator): Promise<{ rows: number; loading: boolean }> {
  return table.evaluate((el) => ({
    rows: el.querySelectorAll('tbody tr:not(.skeleton-row)').length,
    loading: el.getAttribute('aria-busy') === 'true' || el.querySelector('tbody tr.skeleton-row') !== null,
  }));
}

/** The text of the footer under `table` (in its card or section), '' without one. */
async function footerUnder(table: Locator): Promise<string> {
  return table.evaluate((el) => el.closest('.card, section')?.querySelector('.table-footer [aria-live]')?.textContent ?? '');
}

/** A paged record list whose footer says "N shown" (exact) or "N shown, more available". */
async function pagedList(table: Locator, namespace: string, shown = 'shown', more = 'shownMore'): Promise<Reading> {
  const { rows, loading } = await tableRows(table);
  const footer = await footerUnder(table);
  const all = countIn(footer, `${namespace}:${shown}`);
  const some = countIn(footer, `${namespace}:${more}`);
  // No footer under an empty list: its empty state says so, and the count is 0.
  const count = some ?? all ?? (rows === 0 && !loading ? 0 : null);
  return { count, exact: some === null, rows, loading };
}

/**
 * The tables of a screen that shows no count of its own beside them: a footer with a number under any of them is
 * one; all of them drawn, none still a skeleton.
 */
function tablesWithFooters(): Promise<Reading> {
  return page.evaluate(() => {
    let count = 0;
    let rows = 0;
    let loading = false;
    for (const table of document.querySelectorAll('main table.data')) {
      rows += table.querySelectorAll('tbody tr:not(.skeleton-row)').length;
      loading ||= table.getAttribute('aria-busy') === 'true' || table.querySelector('tr.skeleton-row') !== null;
      const footer = table.closest('.card, section')?.querySelector('.table-footer [aria-live]')?.textContent ?? '';
      const number = /\d[\d.,\s\u00a0\u202f]*/.exec(footer)?.[0];
      if (number) count += Number(number.replace(/\D/g, ''));
    }
    return { count, exact: false, rows, loading };
  });
}

/** A tab by its word, whatever badge follows it ("Neu", not "Neukunden"; "Wartend2": the badge has no space before it). */
function tab(list: string, name: string): Locator {
  return page.getByRole('tablist', { name: list }).getByRole('tab', { name: new RegExp(`^${escapeRegExp(name)}(\\s|\\d|$)`) });
}

async function choose(t: Locator): Promise<void> {
  await t.click();
  await expect.poll(() => t.getAttribute('aria-selected')).toBe('true');
}

const TX_TABS = ['to_review', 'needs_receipt', 'ready', 'exported', 'excluded', 'all'] as const;
const grid = () => page.getByRole('grid', { name: tk('transactions:title') });

/**
 * The transactions grid: the selected tab's badge against the grid's rows. Rows in sight must be real rows once the
 * list has loaded (placeholders only while a page is on its way); the grid is as tall as the badge says
 * (aria-rowcount); the footer's "3 of N" says the same N; a count that fits in the grid's height is every row.
 */
async function transactionsReading(): Promise<Reading & { rowCount: number; of: number | null }> {
  const badge = await page
    .getByRole('tablist', { name: tk('transactions:tabs.label') })
    .locator('[role="tab"][aria-selected="true"] .tab-count')
    .innerText();
  const count = /\d/.test(badge) ? readNumber(badge) : null;
  const seen = await grid().evaluate((el) => {
    const box = el.getBoundingClientRect();
    const head = el.querySelector('.tx-head')?.getBoundingClientRect().height ?? 0;
    const inSight = (r: Element) => {
      const b = r.getBoundingClientRect();
      return b.bottom > box.top + head + 1 && b.top < box.bottom - 1;
    };
    const rows = [...el.querySelectorAll('[data-transaction-id]')];
    return {
      rows: rows.length,
      inSight: rows.filter(inSight).length,
      placeholders: [...el.querySelectorAll('.tx-row.placeholder')].filter(inSight).length,
      rowCount: Number(el.getAttribute('aria-rowcount')) - 1,
      busy: el.getAttribute('aria-busy') === 'true',
      capacity: Math.floor((box.height - head) / 40),
      footer: el.closest('.card')?.querySelector('.table-footer [aria-live]')?.textContent ?? '',
    };
  });
  const position = said('transactions:position', ['at', 'of']).exec(seen.footer);
  return {
    count,
    // Only what fits in the grid's height is all there, whatever is loaded beyond it.
    exact: count !== null && count <= seen.capacity,
    rows: count !== null && count > seen.capacity ? seen.inSight : seen.rows,
    loading: seen.busy || (count !== null && count > 0 && seen.inSight === 0 && seen.placeholders > 0),
    rowCount: seen.rowCount,
    of: position?.[2] ? readNumber(position[2]) : null,
  };
}

/** The grid agrees with its tab's badge (within `timeout`), and so do its height and its footer; the badge's count. */
async function transactionsAgree(screen: string, timeout?: number): Promise<number> {
  const r = (await agrees(screen, transactionsReading, timeout)) as Awaited<ReturnType<typeof transactionsReading>>;
  expect(r.rowCount, `${screen}: the grid's height in rows`).toBe(r.count);
  if ((r.count ?? 0) > 0) expect(r.of, `${screen}: the footer's "… of N"`).toBe(r.count);
  return r.count ?? 0;
}

describe('every list against its count', () => {
  it('each screen of the navigation shows the rows its count says', { timeout: 150_000 }, async () => {
    await seedScreensData(ui);
    await seedInboxAndRules(ui, ui.key());
    await signIn('/customers');
    const walked: string[] = [];
    const counts: Record<string, number> = {};
    const check = async (screen: string, read: () => Promise<Reading>) => {
      const r = await agrees(screen, read);
      walked.push(screen);
      counts[screen] = r.count ?? 0;
    };

    // Customers: "N customers shown" under the table, in every group.
    const customers = page.getByRole('table', { name: tk('customers:title') });
    for (const group of ['all', 'first-time', 'repeat', 'recent', 'unpaid', 'paid']) {
      await choose(tab(tk('customers:groups'), tk(`customers:tabs.${group}.label`)));
      await check(`customers (${group})`, () => pagedList(customers, 'customers'));
    }

    // Invoices: the totals' "N invoices here" and the footer, tab by tab.
    await app.nav('Invoices').click();
    const invoices = page.getByRole('table', { name: tk('invoices:title') });
    for (const t of ['all', 'draft', 'open', 'overdue', 'paid', 'closed']) {
      await choose(tab(tk('invoices:tabs.label'), tk(`invoices:tabs.${t}`)));
      await check(`invoices (${t})`, () => pagedList(invoices, 'invoices'));
      // The totals count the tab's invoices on the server, per currency: the list holds as many (when it holds them
      // all). On "All" they count the issued ones only, and the list has the drafts too.
      await check(`invoices (${t}): totals`, async () => {
        const list = await pagedList(invoices, 'invoices');
        const region = page.getByRole('region', { name: tk('invoices:totals.label') });
        const tiles = (await region.count()) ? await region.locator('dt').allInnerTexts() : [];
        const key = t === 'all' ? 'invoices:totals.issued' : 'invoices:totals.inTab';
        const inTab = tiles.map((x) => countIn(x, key)).filter((n) => n !== null);
        const summaryPending = (await page.locator('.inv-totals.skeleton-block').count()) > 0;
        return {
          count: summaryPending ? null : inTab.reduce((a, b) => a + b, 0),
          exact: list.exact && t !== 'all',
          rows: list.rows,
          loading: list.loading || summaryPending,
        };
      });
    }

    // Time: the projects, in progress and completed.
    await app.nav('Time').click();
    const projects = page.getByRole('table', { name: tk('time:projects.title') });
    for (const status of ['in_progress', 'completed']) {
      await choose(tab(tk('time:projects.statusLabel'), tk(`time:projects.status.${status}`)));
      await check(`time: projects (${status})`, () => pagedList(projects, 'time', 'projects.shown', 'projects.shownMore'));
    }

    // Transactions: each review-state tab's badge against the grid.
    await app.nav('Transactions').click();
    for (const t of TX_TABS) {
      await choose(tab(tk('transactions:tabs.label'), tk(`transactions:tabs.${t}`)));
      counts[`transactions (${t})`] = await transactionsAgree(`transactions (${t})`);
      walked.push(`transactions (${t})`);
    }

    // Inbox: "N receipts" under the list, tab by tab.
    await app.nav('Inbox').click();
    const inbox = page.getByRole('table', { name: tk('inbox:listLabel') });
    for (const t of ['waiting', 'suggested', 'matched', 'noMatch', 'archived', 'all']) {
      await choose(tab(tk('inbox:tabs.label'), tk(`inbox:tabs.${t}`)));
      await check(`inbox (${t})`, () => pagedList(inbox, 'inbox'));
    }

    // Rules: "Show all N" suggestions, then as many listed.
    await app.nav('Rules').click();
    const suggestions = page.getByRole('region', { name: tk('rules:suggestions.title') });
    await suggestions.locator('li').first().waitFor();
    const more = suggestions.locator('button.rule-more');
    expect(await more.count(), 'rules: the demo has more suggestions than are shown first').toBe(1);
    const showAll = countIn(await more.innerText(), 'rules:suggestions.all');
    await more.click();
    await check('rules: suggestions', async () => ({
      count: showAll,
      exact: true,
      rows: await suggestions.locator('li.finding').count(),
      loading: false,
    }));
    await check('rules', tablesWithFooters);

    // Categories: each group's "N categories" against the rows beneath it.
    await app.nav('Categories').click();
    const categories = page.getByRole('table', { name: tk('categories:title') });
    await check('categories', async () => {
      const { rows, loading } = await tableRows(categories);
      const groups = await categories.evaluate((el) =>
        [...el.querySelectorAll('tbody tr[data-category-id]')].reduce<{ said: string; under: number }[]>((out, tr) => {
          if (tr.classList.contains('group'))
            out.push({ said: tr.querySelector('.cat-name .faint')?.textContent ?? '', under: 0 });
          else if (out.length) (out[out.length - 1] as { under: number }).under++;
          return out;
        }, []),
      );
      const wrong = groups.find((g) => (countIn(g.said, 'categories:childCount') ?? 0) !== g.under);
      const said = groups.reduce((n, g) => n + (countIn(g.said, 'categories:childCount') ?? 0), 0);
      const under = groups.reduce((n, g) => n + g.under, 0);
      return {
        count: wrong ? (countIn(wrong.said, 'categories:childCount') ?? 0) : said,
        exact: true,
        rows: wrong ? wrong.under : under,
        loading: loading || rows === 0,
      };
    });

    // Workflows: the "Waiting" badge, then the Waiting tab's rows.
    await app.nav('Workflows').click();
    const runs = page.getByRole('table', { name: tk('workflows:runs') });
    const waitingTab = tab(tk('workflows:filters.label'), tk('workflows:filters.waiting'));
    await waitingTab.locator('.tab-count').waitFor();
    const waiting = readNumber(await waitingTab.locator('.tab-count').innerText());
    await choose(waitingTab);
    await check('workflows (waiting)', async () => ({ count: waiting, exact: true, ...(await tableRows(runs)) }));
    await choose(tab(tk('workflows:filters.label'), tk('workflows:filters.all')));
    await check('workflows (all)', async () => ({ count: waiting, exact: false, ...(await tableRows(runs)) }));

    // The bell (on every screen): "N unread", and the popover lists as many unread.
    const bell = page.locator('.topbar .bell > button');
    const bellSays = async () => {
      const m = said('notifications:buttonUnread', ['shown']).exec((await bell.getAttribute('aria-label')) ?? '');
      return m?.[1] ? readNumber(m[1]) : null;
    };
    await expect.poll(bellSays, { message: 'the bell counts the unread' }).toBeGreaterThan(0);
    const unread = (await bellSays()) ?? 0;
    await bell.click();
    // The popover lists the newest 30, read or not, and older ones on "Show older": all of them shown, every unread
    // one is among them.
    const older = page.locator('.bell-panel .popover-footer button');
    await page.locator('.notif-list:not([aria-busy="true"]), .bell-panel .popover-empty').first().waitFor();
    for (let i = 0; i < 10 && (await older.count()) > 0; i++) {
      const shown = await page.locator('.notif-list .notif').count();
      await older.click();
      await expect.poll(() => page.locator('.notif-list .notif').count()).toBeGreaterThan(shown);
    }
    await check('notifications', async () => ({
      count: unread,
      exact: (await older.count()) === 0,
      rows: await page.locator('.notif-list .notif.unread').count(),
      loading: (await page.locator('.notif-list[aria-busy="true"]').count()) > 0,
    }));
    await page.keyboard.press('Escape');

    // The screens with lists but no count beside them: each shows its list (or its empty state), nothing half-drawn.
    for (const [nav, screen] of [
      ['Import', 'import'],
      ['Runway', 'runway'],
      ['Sync', 'sync'],
      ['Settings', 'settings'],
      ['Team settings', 'team settings'],
      ['Health and about', 'about'],
    ] as const) {
      await app.nav(nav).click();
      await check(screen, tablesWithFooters);
    }

    // The walk covered what the demo fills: counts above zero where the journeys rely on them.
    for (const screen of [
      'customers (all)',
      'invoices (overdue)',
      'invoices (all): totals',
      'time: projects (completed)',
      'transactions (to_review)',
      'transactions (all)',
      'inbox (waiting)',
      'rules: suggestions',
      'categories',
      'workflows (waiting)',
      'notifications',
    ])
      expect(counts[screen], `${screen}: the demo's count`).toBeGreaterThan(0);
    expect(walked.length).toBeGreaterThan(30);
    expect(app.errors.filter((e) => !/status of (401|404)/.test(e))).toEqual([]);
  });
});

/** Screens a person goes to between two looks at the transactions, with the key of their title (their heading). */
const ELSEWHERE = [
  ['Customers', 'customers:title'],
  ['Invoices', 'invoices:title'],
  ['Time', 'time:title'],
  ['Inbox', 'inbox:title'],
  ['Rules', 'rules:title'],
  ['Categories', 'categories:title'],
  ['Workflows', 'workflows:title'],
  ['Settings', 'settings:title'],
] as const;
/** The sidebar's order: Customers, Invoices, Time, Transactions, … */
const NAV_ORDER = [
  'Customers',
  'Invoices',
  'Time',
  'Transactions',
  'Inbox',
  'Import',
  'Rules',
  'Categories',
  'Runway',
  'Workflows',
  'Sync',
  'Settings',
];

async function arrived(nav: string, titleKey: string): Promise<void> {
  await expect.poll(() => app.nav(nav).getAttribute('aria-current')).toBe('page');
  await page.getByRole('heading', { level: 1, name: tk(titleKey), exact: true }).waitFor();
}

/** Scrolls the grid with the mouse wheel over it, to its middle or its end, and waits until it is there. */
async function wheelTo(where: 'middle' | 'end'): Promise<void> {
  const box = await grid().boundingBox();
  if (!box) throw new Error('the grid is not shown');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const { top, max } = await grid().evaluate((el) => ({ top: el.scrollTop, max: el.scrollHeight - el.clientHeight }));
  const target = where === 'middle' ? Math.round(max / 2) : max;
  await page.mouse.wheel(0, target - top);
  await expect
    .poll(() => grid().evaluate((el, t) => Math.abs(el.scrollTop - t) < 50, target), {
      message: `the grid scrolled to its ${where}`,
    })
    .toBe(true);
}

/**
 * Presses Tab (or Shift+Tab) until `target` has the focus, as a person finds a link without a mouse. The presses it
 * takes are counted first (the page has no positive tabindex: the order is the document's), then made at once.
 */
async function tabTo(target: Locator, backwards: boolean): Promise<void> {
  const presses = await target.evaluate((goal, back) => {
    const focusable = [...document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex]')].filter(
      (el) => el.tabIndex >= 0 && !(el as HTMLButtonElement).disabled && el.getClientRects().length > 0,
    );
    const from = focusable.indexOf(document.activeElement as HTMLElement);
    const to = focusable.indexOf(goal as HTMLElement);
    return from < 0 || to < 0 ? 0 : back ? from - to : to - from;
  }, backwards);
  for (let i = 0; i < Math.max(0, presses); i++) await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  for (let i = 0; i < 80; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`80 presses of ${backwards ? 'Shift+Tab' : 'Tab'} did not reach ${target}`);
}

const gridHasFocus = () => grid().evaluate((el) => el === document.activeElement);

describe('the transactions grid after coming back to it', () => {
  it('shows its rows on every arrival from the sidebar, scrolled to the middle or the end in between, by mouse and by keyboard', {
    timeout: 150_000,
  }, async () => {
    await signIn('/transactions');
    const first = await transactionsAgree('transactions, first arrival');
    expect(first, 'the demo has transactions to review').toBeGreaterThan(40);

    const rounds = 16;
    for (let i = 0; i < rounds; i++) {
      const where = i % 2 === 0 ? 'middle' : 'end';
      await wheelTo(where);
      await transactionsAgree(`transactions, scrolled to the ${where} (round ${i + 1})`);
      const [nav, titleKey] = ELSEWHERE[i % ELSEWHERE.length] as (typeof ELSEWHERE)[number];
      await app.nav(nav).click();
      await arrived(nav, titleKey);
      await app.nav('Transactions').click();
      await arrived('Transactions', 'transactions:title');
      // Within a short wait: the data is in the cache; only the grid has to draw it.
      expect(await transactionsAgree(`transactions, arrival ${i + 1} (from ${nav}, left at its ${where})`, 3_000)).toBe(first);
    }

    // By keyboard: End or Page Down in the grid, Tab to the sidebar, Enter, and back.
    await expect.poll(gridHasFocus, { message: 'the grid has the keyboard on arrival' }).toBe(true);

    const keyRounds = 6;
    for (let i = 0; i < keyRounds; i++) {
      if (i % 2 === 0) {
        // End goes to the last row loaded; pressed again as pages arrive, it reaches further.
        for (let press = 0; press < 2; press++) {
          await page.keyboard.press('End');
          await transactionsAgree(`transactions, End pressed (round ${i + 1})`);
        }
      } else {
        for (let press = 0; press < 12; press++) await page.keyboard.press('PageDown');
        await transactionsAgree(`transactions, Page Down pressed (round ${i + 1})`);
      }
      expect(await grid().evaluate((el) => el.scrollTop), 'the keys scrolled the grid').toBeGreaterThan(0);
      const [nav, titleKey] = ELSEWHERE[i % ELSEWHERE.length] as (typeof ELSEWHERE)[number];
      await tabTo(app.nav(nav), true);
      await page.keyboard.press('Enter');
      await arrived(nav, titleKey);
      const back = app.nav('Transactions');
      // From the link just used, the sidebar's Transactions is a few presses away (the link keeps the focus).
      await tabTo(back, NAV_ORDER.indexOf(nav) > NAV_ORDER.indexOf('Transactions'));
      await page.keyboard.press('Enter');
      await arrived('Transactions', 'transactions:title');
      expect(await transactionsAgree(`transactions, keyboard arrival ${i + 1} (from ${nav})`, 3_000)).toBe(first);
      await expect.poll(gridHasFocus, { message: `keyboard arrival ${i + 1}: the grid has the keyboard` }).toBe(true);
    }
  });
});
