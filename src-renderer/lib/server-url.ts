/**
 * Checks what a person typed as the server address in Settings. Accepts an http(s) origin, with or without a
 * trailing slash or `/v1` (people paste the API base); refuses anything else with a sentence saying why.
 */
export type ServerUrlCheck = { ok: true; origin: string } | { ok: false; message: string };

export function checkServerUrl(input: string): ServerUrlCheck {
  const text = input.trim();
  if (!text) return { ok: false, message: 'Enter the address of the Finops Desk server, e.g. http://127.0.0.1:4100' };
  if (!text.includes('://') && /^[\w.-]+(:\d+)?(\/.*)?$/.test(text)) {
    return { ok: false, message: `Start the address with http:// or https://, e.g. http://${text}` };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: 'This is not a web address. It should look like http://127.0.0.1:4100' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, message: 'The address must start with http:// or https://' };
  }
  if (url.username || url.password) return { ok: false, message: 'Put the API key in its own field, not in the address' };
  const path = url.pathname.replace(/\/+$/, '');
  if (path !== '' && path !== '/v1') return { ok: false, message: 'Enter only the server address, without a path' };
  if (url.search || url.hash) return { ok: false, message: 'Enter only the server address, without ? or #' };
  return { ok: true, origin: url.origin };
}

/** API keys of this server look like `finops_` + 64 hex digits; OAuth access tokens are accepted as they are. */
export function checkApiKey(input: string): { ok: true; key: string } | { ok: false; message: string } {
  const key = input.trim();
  if (!key) return { ok: false, message: 'Enter an API key (create one with: finops token create --team NAME)' };
  if (/\s/.test(key)) return { ok: false, message: 'The key must not contain spaces' };
  return { ok: true, key };
}
