import { describe, expect, it } from 'vitest';
import { FORM_KEY, fieldErrorsFrom } from '../../../src-renderer/lib/field-errors';

describe('fieldErrorsFrom (422 description → messages per field)', () => {
  it.each([
    ['body.email: must be a valid email address', { email: 'Must be a valid email address' }],
    [
      'body.email: must be a valid email address; body.countryCode: must be an ISO 3166-1 alpha-2 country code, e.g. DE',
      { email: 'Must be a valid email address', countryCode: 'Must be an ISO 3166-1 alpha-2 country code, e.g. DE' },
    ],
    ['body.tags.0.id: Invalid input', { tags: 'Invalid input' }],
    ['body: Unrecognized key: "externalId"', { [FORM_KEY]: 'Unrecognized key: "externalId"' }],
    ['body.email: first; body.email: second', { email: 'First' }],
    ['something unexpected', { [FORM_KEY]: 'Something unexpected' }],
  ])('%s', (description, expected) => {
    expect(fieldErrorsFrom(description)).toEqual(expected);
  });

  it('maps a store reference error ("field: tags") with the message', () => {
    expect(fieldErrorsFrom('field: tags', 'Unknown tag id x')).toEqual({ tags: 'Unknown tag id x' });
  });

  it('falls back to the message when the description names nothing', () => {
    expect(fieldErrorsFrom(undefined, 'The request does not match the schema')).toEqual({
      [FORM_KEY]: 'The request does not match the schema',
    });
    expect(fieldErrorsFrom('')).toEqual({});
  });
});
