import { upsertCustomer } from '../../../src-main/store/customers/write';
import { type Db, openDatabase } from '../../../src-main/store/db';
import { createInvoice } from '../../../src-main/store/invoices/write';
import { ensureTeam } from '../../../src-main/store/teams/teams';
import type { InvoiceCreate } from '../../../src-shared/contract/invoices';
import { tmpDir } from '../../helpers/tmp';

/** A data dir with one team and one customer who has an email address. */
export function seedTeam(name = 'Invoices Team'): { db: Db; dataDir: string; teamId: string; customerId: string } {
  const dataDir = tmpDir('finops-invoices-');
  const db = openDatabase(dataDir);
  const teamId = ensureTeam(db, name).id;
  const customerId = upsertCustomer(db, teamId, { name: 'Acme Ltd', email: 'ap@acme.example' }).customer.id;
  return { db, dataDir, teamId, customerId };
}

export function invoice(db: Db, teamId: string, body: Partial<InvoiceCreate> & { customerId?: string | null }, now?: Date) {
  return createInvoice(
    db,
    teamId,
    { deliveryType: 'create', lineItems: [{ name: 'Consulting', quantity: 3, price: 150 }], ...body } as InvoiceCreate,
    { now },
  );
}
