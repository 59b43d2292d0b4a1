/**
 * Turns a 422 answer into messages per form field, from the structured list the server sends
 * (`fields: [{ location, path, message }]`, docs/decisions/0013-error-field-list.md).
 *
 * - A body input shows under the form field its path starts with (`email`, `tags.0.id` → `tags`), when the form
 *   has that field.
 * - Anything else — an input the form does not show, the body as a whole (empty path), the query, params or
 *   headers — shows above the form (`_form`), named when it has a path; several are joined.
 * - The first message per form field wins; with no list at all, the answer's message goes above the form.
 */
import type { FieldError } from '../../src-shared/contract/errors';

export type FieldErrors = Record<string, string>;

export const FORM_KEY = '_form';

export interface FieldErrorSource {
  fields?: readonly FieldError[];
  message?: string;
}

export function fieldErrorsFrom(error: FieldErrorSource, formFields?: ReadonlySet<string>): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => {
    if (!errors[field]) errors[field] = message;
  };
  for (const f of error.fields ?? []) {
    const top = f.path.split('.')[0] ?? '';
    const onForm = f.location === 'body' && top !== '' && (formFields === undefined || formFields.has(top));
    if (onForm) add(top, sentence(f.message));
    else {
      const text = f.path ? `${f.path}: ${f.message}` : sentence(f.message);
      errors[FORM_KEY] = errors[FORM_KEY] ? `${errors[FORM_KEY]}; ${text}` : text;
    }
  }
  if (Object.keys(errors).length === 0 && error.message) errors[FORM_KEY] = error.message;
  return errors;
}

function sentence(text: string): string {
  const t = text.trim();
  return t.charAt(0).toUpperCase() + t.slice(1);
}
