import { describe, expect, it } from 'vitest';
import {
  emptyForm,
  formFromCustomer,
  localErrors,
  toCreateBody,
  toPatchBody,
} from '../../../../src-renderer/screens/customers/form-model';
import { type Customer, CustomerCreate, CustomerPatch } from '../../../../src-shared/contract/customers';

const customer = {
  id: 'c1',
  name: 'Acme GmbH',
  email: 'ap@acme.example',
  billingEmail: null,
  phone: null,
  website: null,
  contact: 'Jane Roe',
  country: 'Germany',
  countryCode: 'DE',
  addressLine1: null,
  addressLine2: null,
  city: 'Berlin',
  state: null,
  zip: null,
  vatNumber: null,
  peppolId: null,
  note: null,
  tags: [{ id: 't1', name: 'VIP' }],
} as unknown as Customer;

describe('customer form model', () => {
  it('create sends the name and the non-blank fields only, and passes the contract', () => {
    const values = { ...emptyForm(), name: '  New Co ', email: 'x@new.example', city: '   ', tagIds: ['t1'] };
    const body = toCreateBody(values);
    expect(body).toEqual({ name: 'New Co', email: 'x@new.example', tags: [{ id: 't1' }] });
    expect(CustomerCreate.safeParse(body).success).toBe(true);
  });

  it('edit of an untouched form sends nothing', () => {
    expect(toPatchBody(customer, formFromCustomer(customer))).toEqual({});
  });

  it('edit sends only changed fields; an emptied field is sent as null; retyped spaces are no change', () => {
    const values = { ...formFromCustomer(customer), city: 'Hamburg', contact: '', email: ' ap@acme.example ' };
    const patch = toPatchBody(customer, values);
    expect(patch).toEqual({ city: 'Hamburg', contact: null });
    expect(CustomerPatch.safeParse(patch).success).toBe(true);
  });

  it('edit replaces the tag set only when it changed (order does not matter)', () => {
    const two = {
      ...customer,
      tags: [
        { id: 't1', name: 'VIP' },
        { id: 't2', name: 'EU' },
      ],
    } as Customer;
    expect(toPatchBody(two, { ...formFromCustomer(two), tagIds: ['t2', 't1'] })).toEqual({});
    expect(toPatchBody(two, { ...formFromCustomer(two), tagIds: ['t2'] })).toEqual({ tags: [{ id: 't2' }] });
    expect(toPatchBody(two, { ...formFromCustomer(two), tagIds: [] })).toEqual({ tags: [] });
  });

  it('requires a name before sending', () => {
    expect(localErrors({ ...emptyForm(), name: '  ' })).toEqual({ name: 'Enter the customer’s name' });
    expect(localErrors({ ...emptyForm(), name: 'A' })).toEqual({});
  });

  it('checks a VAT number against its country’s format before sending', () => {
    const form = { ...emptyForm(), name: 'A', countryCode: 'DE' };
    expect(localErrors({ ...form, vatNumber: 'DE 123 456 789' })).toEqual({});
    expect(localErrors({ ...form, vatNumber: '12345678' })).toEqual({
      vatNumber: 'Not the format of a VAT number of Germany: for example DE123456789',
    });
    expect(localErrors({ ...form, countryCode: 'US', vatNumber: '12-3456789' })).toEqual({});
  });
});
