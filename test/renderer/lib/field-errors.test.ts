import { describe, expect, it } from 'vitest';
import { FORM_KEY, fieldErrorsFrom } from '../../../src-renderer/lib/field-errors';
import type { FieldError } from '../../../src-shared/contract/errors';

const body = (path: string, message: string): FieldError => ({ location: 'body', path, message });
const FORM = new Set(['name', 'email', 'countryCode', 'tags']);

describe('fieldErrorsFrom (422 field list → messages per form field)', () => {
  it.each([
    ['one body field', [body('email', 'must be a valid email address')], { email: 'Must be a valid email address' }],
    [
      'two body fields',
      [
        body('email', 'must be a valid email address'),
        body('countryCode', 'must be an ISO 3166-1 alpha-2 country code, e.g. DE'),
      ],
      { email: 'Must be a valid email address', countryCode: 'Must be an ISO 3166-1 alpha-2 country code, e.g. DE' },
    ],
    ['a nested path, under its top field', [body('tags.0.id', 'Invalid input')], { tags: 'Invalid input' }],
    ['the first message per field', [body('email', 'first'), body('email', 'second')], { email: 'First' }],
    [
      'the body as a whole, above the form',
      [body('', 'Unrecognized key: "externalId"')],
      { [FORM_KEY]: 'Unrecognized key: "externalId"' },
    ],
    [
      'an input the form does not show, named above the form',
      [body('linkedinUrl', 'must be a web address'), body('email', 'bad')],
      { [FORM_KEY]: 'linkedinUrl: must be a web address', email: 'Bad' },
    ],
    [
      'inputs outside the body, above the form, joined',
      [
        { location: 'query', path: 'pageSize', message: 'too big' },
        { location: 'headers', path: 'idempotency-key', message: 'reused with another body' },
      ] satisfies FieldError[],
      { [FORM_KEY]: 'pageSize: too big; idempotency-key: reused with another body' },
    ],
  ] as const)('%s', (_, fields, expected) => {
    expect(fieldErrorsFrom({ fields, message: 'The request does not match the schema' }, FORM)).toEqual(expected);
  });

  it('maps a reference to a missing record (the store’s InvalidReference) to its field', () => {
    expect(fieldErrorsFrom({ fields: [body('tags', 'Unknown tag id x')], message: 'Unknown tag id x' }, FORM)).toEqual({
      tags: 'Unknown tag id x',
    });
  });

  it('puts every body field under its own name when the form does not say which it shows', () => {
    expect(fieldErrorsFrom({ fields: [body('linkedinUrl', 'bad')] })).toEqual({ linkedinUrl: 'Bad' });
  });

  it('falls back to the message when there is no field list, and gives nothing for nothing', () => {
    expect(fieldErrorsFrom({ message: 'The request does not match the schema' })).toEqual({
      [FORM_KEY]: 'The request does not match the schema',
    });
    expect(fieldErrorsFrom({ fields: [] })).toEqual({});
  });

  it('does not read the free-text description', () => {
    const legacy = { description: 'body.email: must be a valid email address', message: 'invalid' };
    expect(fieldErrorsFrom(legacy)).toEqual({ [FORM_KEY]: 'invalid' });
  });
});
