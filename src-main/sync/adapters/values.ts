import type { Json } from '../../../src-shared/domain/sync/merge';
import { toUnitPrice } from '../../../src-shared/domain/unit-price';
import { toMajor, toMinor } from '../../../src-shared/money';

/** Reading an API body's values as a projection takes them (wrong types read as absent), and writing them back. */
export type Api = Record<string, unknown>;

export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
export const boolOr = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : fallback);
export const day = (v: unknown): string | null => (typeof v === 'string' ? v.slice(0, 10) : null);
/** Tag ids of `[{id}]` or `[id]`, sorted (their order means nothing). */
export const tagIds = (v: unknown): string[] =>
  Array.isArray(v)
    ? v
        .map((t) => (t && typeof t === 'object' ? str((t as Api).id) : str(t)))
        .filter((x): x is string => x !== null)
        .sort()
    : [];
export const tagRefs = (v: Json | undefined) => (Array.isArray(v) ? (v as string[]).map((id) => ({ id })) : []);
export const minor = (amount: unknown, currency: string | null): number | null => {
  const n = num(amount);
  if (n === null || !currency) return null;
  return toMinor(n, currency);
};
/** A unit price (unit-price.ts): `priceScale` only where the price has decimals beyond the currency's. */
export const unitPrice = (amount: unknown, currency: string | null): { priceMinor: number; priceScale?: number } => {
  const n = num(amount);
  return n === null || !currency ? { priceMinor: 0 } : toUnitPrice(n, currency);
};
export const major = (amountMinor: Json | undefined, currency: Json | undefined): number | null =>
  typeof amountMinor === 'number' && typeof currency === 'string' ? toMajor(amountMinor, currency) : null;

/** The fields as they are: the body of an entity whose API names are its projection's. */
export function asIs(fields: Readonly<Record<string, Json>>): Record<string, unknown> {
  return { ...fields };
}
