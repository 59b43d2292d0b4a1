/**
 * Turns the server's 422 `description` into messages per form field.
 *
 * The server names each failing field as `body.<path>: <message>` separated by `; `
 * (src-main/server/errors.ts, describeValidation), e.g.
 * `body.email: Invalid email address; body.countryCode: Unknown country code`. Store-level reference errors say
 * `field: tags`. Anything that names no field is returned under `_form`.
 */
export type FieldErrors = Record<string, string>;

export const FORM_KEY = '_form';

export function fieldErrorsFrom(description: string | undefined, fallbackMessage?: string): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => {
    if (!errors[field]) errors[field] = message;
  };
  for (const part of (description ?? '').split(/;\s+/)) {
    const text = part.trim();
    if (!text) continue;
    const ref = /^field:\s*([A-Za-z0-9_.]+)$/.exec(text);
    if (ref?.[1]) {
      add(ref[1].split('.')[0]!, fallbackMessage ?? 'Invalid value');
      continue;
    }
    const m = /^(?:body|querystring|params)(?:\.([A-Za-z0-9_]+)[A-Za-z0-9_.]*)?:\s*(.+)$/.exec(text);
    if (m) add(m[1] ?? FORM_KEY, sentence(m[2]!));
    else add(FORM_KEY, sentence(text));
  }
  if (Object.keys(errors).length === 0 && fallbackMessage) errors[FORM_KEY] = fallbackMessage;
  return errors;
}

function sentence(text: string): string {
  const t = text.trim();
  return t.charAt(0).toUpperCase() + t.slice(1);
}
