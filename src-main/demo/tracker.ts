/**
 * Time tracking: projects for the agency's busier customers (one or two each, billable at an hourly rate in the
 * customer's invoice currency) plus one internal non-billable project, and the billable staff's entries on working
 * days while a project runs. Projects whose end lies more than two weeks before the as-of day are completed.
 * Entries have no assignee (the demo creates no user accounts) and last 30 minutes to 4 hours, in quarter hours.
 */
import type { SeedProject } from '../store/demo/seed-records';
import { type Employee, employed } from './accounts';
import { type EpochDay, isWeekend } from './calendar';
import { PROJECT_KINDS, TRACKER_TASKS } from './catalog';
import { type DemoWindow, type MakeId, stamp } from './context';
import type { DemoCustomer } from './customers';
import type { DemoInvoice } from './invoices';
import type { Prng } from './prng';

/** A project: the columns the store writes (store/demo/bulk-seed.ts), its customer, its tags by name, its span. */
export interface DemoProject extends Omit<SeedProject, 'status' | 'customerId' | 'tagIds' | 'createdAt' | 'updatedAt'> {
  status: 'in_progress' | 'completed';
  customer: DemoCustomer | null;
  tagNames: string[];
  start: EpochDay;
  end: EpochDay;
}

export interface DemoEntry {
  id: string;
  project: DemoProject;
  day: EpochDay;
  start: string;
  stop: string;
  durationSeconds: number;
  description: string;
}

export function generateProjects(rng: Prng, w: DemoWindow, invoices: readonly DemoInvoice[], makeId: MakeId): DemoProject[] {
  const firstInvoice = new Map<DemoCustomer, EpochDay>();
  for (const inv of invoices) if (!inv.retainer && !firstInvoice.has(inv.customer)) firstInvoice.set(inv.customer, inv.issueDay);
  const clients = rng.sample([...firstInvoice.keys()], 36);
  clients.sort((a, b) => firstInvoice.get(a)! - firstInvoice.get(b)!);
  const projects: DemoProject[] = [];
  for (const customer of clients) {
    const kinds = rng.sample(PROJECT_KINDS, rng.chance(0.3) ? 2 : 1);
    let start = Math.max(w.first, firstInvoice.get(customer)! - rng.int(20, 50));
    for (const kind of kinds) {
      const end = start + rng.int(45, 240);
      const rateMinor = rng.pick([9_500, 11_000, 12_000, 13_500, 15_000]);
      projects.push({
        id: makeId(),
        name: `${customer.name.split(' ').slice(0, 2).join(' ')} — ${kind}`,
        description: `${kind} for ${customer.name}`,
        estimateHours: rng.int(8, 60) * 10,
        billable: true,
        rateMinor: customer.invoiceCurrency === 'USD' ? Math.round(rateMinor * 1.1) : rateMinor,
        currency: customer.invoiceCurrency,
        status: end < w.asOf - 14 ? 'completed' : 'in_progress',
        customer,
        tagNames: rng.sample(['project', 'priority', 'enterprise'], rng.int(0, 2)),
        start,
        end: Math.min(end, w.asOf + 60),
      });
      start = end + rng.int(10, 60);
    }
  }
  projects.push({
    id: makeId(),
    name: 'Internal — Agency website & portfolio',
    description: 'Non-billable work on our own site and case studies',
    estimateHours: 200,
    billable: false,
    rateMinor: null,
    currency: null,
    status: 'in_progress',
    customer: null,
    tagNames: ['internal'],
    start: w.first,
    end: w.asOf + 365,
  });
  return projects;
}

export function generateEntries(
  rng: Prng,
  w: DemoWindow,
  projects: readonly DemoProject[],
  employees: readonly Employee[],
  makeId: MakeId,
): DemoEntry[] {
  const entries: DemoEntry[] = [];
  // Through the day before the as-of day: every timestamp stops at the anchor (the start of that day), so an entry
  // of that day would end where it starts and break the product's own rule (a duration within stop − start).
  for (let day = w.first; day < w.asOf; day++) {
    if (isWeekend(day)) continue;
    const running = projects.filter((p) => p.start <= day && day <= p.end);
    if (!running.length) continue;
    for (const e of employees) {
      if (!e.billable || !employed(e, day) || !rng.chance(0.22)) continue;
      const project = rng.weighted(running, (p) => (p.billable ? 4 : 1));
      const startSeconds = rng.int(36, 60) * 900; // 09:00–15:00
      const durationSeconds = rng.int(2, 16) * 900; // 0:30–4:00
      entries.push({
        id: makeId(),
        project,
        day,
        start: stamp(w, day, startSeconds),
        stop: stamp(w, day, startSeconds + durationSeconds),
        durationSeconds,
        description: rng.pick(TRACKER_TASKS),
      });
    }
  }
  return entries;
}
