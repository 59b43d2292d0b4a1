/**
 * Money as a request sends it: decimal major units of a currency, turned into the integer minor units the store
 * keeps (src-shared/money.ts toMinor). What the conversion refuses (more decimals than the currency has, an unknown
 * currency, a magnitude beyond MAX_MINOR) is the client's mistake, so it becomes an InvalidReference naming the field,
 * which the server answers 422 with that field (server/errors.ts).
 *
 * It lives here and not in src-shared because InvalidReference is the store's error, and src-shared imports nothing of
 * src-main (test/main/store/layering.test.ts).
 */
import { MoneyError, toMinor } from '../../src-shared/money';
import { InvalidReference } from './errors';

/**
 * How the 422's message reads. `bare`: the conversion's own sentence ("EUR amounts have at most 2 decimal places;
 * got 1.234"), as the money routes answer; `named`: led by the field ("rate: EUR amounts have…"), as the invoice,
 * tracker, inbox and payment writes answer.
 */
export type FieldMessage = 'bare' | 'named';

/** Runs a money conversion; its MoneyError becomes the field's InvalidReference, any other error passes through. */
export function moneyField<T>(field: string, convert: () => T, message: FieldMessage = 'bare'): T {
  try {
    return convert();
  } catch (err) {
    if (err instanceof MoneyError)
      throw new InvalidReference(field, message === 'named' ? `${field}: ${err.message}` : err.message);
    throw err;
  }
}

/** 12.34 EUR at `field` → 1234; the field's InvalidReference when toMinor refuses it. */
export function minorOf(amount: number, currency: string, field: string, message: FieldMessage = 'bare'): number {
  return moneyField(field, () => toMinor(amount, currency), message);
}
