import { describe, expect, it } from 'vitest';
import { pathId } from '../../../src-renderer/lib/router';

describe('detail paths', () => {
  it('name the record under a screen’s path, and nothing on the screen’s own path', () => {
    expect(pathId('/invoices/01a2-b3', '/invoices')).toBe('01a2-b3');
    expect(pathId('/customers/a%20b/edit', '/customers')).toBe('a b');
    expect(pathId('/invoices', '/invoices')).toBeNull();
    expect(pathId('/invoices/', '/invoices')).toBeNull();
    expect(pathId('/invoicesx/1', '/invoices')).toBeNull();
  });
});
