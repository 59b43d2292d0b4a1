/**
 * OFX's markup read in one pass (docs/decisions/0171-linear-bank-file-parsers.md): OFX 1.x is SGML whose leaf
 * elements are never closed (`<TRNAMT>-12.50` then the next tag), OFX 2.x is XML; both come out as the same tree of
 * plain objects: an element with children is an object of them by name (a repeated name becomes an array), a leaf is
 * its text, entities decoded. ofx-js, read before, turned SGML into XML with regular expressions, one of which
 * backtracks exponentially (`<OFX><SIGNONMSGSRSV1><` + 24 × `A` + `>x` took seconds); no OFX package on npm reads
 * the markup otherwise, so this reader is ours.
 *
 * The rules, each one step of a scan that looks at every character once:
 * - the tree starts at the first `<OFX>` (the header before it — `OFXHEADER:100` lines, or `<?xml …?><?OFX …?>` — is
 *   read by the caller);
 * - `<NAME>` opens an element. An open element that already holds text and no child is a leaf left unclosed, as OFX
 *   1.x writes them: a new tag closes it first;
 * - `</NAME>` closes that element and every unclosed leaf inside it; a closing tag of nothing open is ignored (a leaf
 *   the SGML rule closed already, then closed again by the bank);
 * - comments, processing instructions and `<![CDATA[…]]>` (text, taken as written) are read as XML reads them;
 * - a tag that does not end, or a name that is not one, is an error naming its line; so is nesting deeper than
 *   MAX_DEPTH (OFX's deepest aggregate is about 8 levels).
 */
export type OfxValue = string | OfxNode | OfxValue[];
export interface OfxNode {
  [name: string]: OfxValue;
}

export class OfxMarkupError extends Error {
  override name = 'OfxMarkupError';
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
  }
}

export const MAX_DEPTH = 64;

interface Open {
  name: string;
  text: string;
  /** The text holds more than white space. */
  solid: boolean;
  children: [string, OfxValue][];
}

/** Text inside an element: kept while it has no child (the white space between children is not content). */
function append(e: Open, chunk: string): void {
  if (e.children.length > 0) return;
  e.text += chunk;
  if (!e.solid && /\S/.test(chunk)) e.solid = true;
}

const NAME = /^[A-Za-z_][\w.:-]*$/;
const ENTITY = /&(#x[0-9a-f]{1,6}|#\d{1,7}|lt|gt|amp|quot|apos|nbsp);/gi;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(ENTITY, (whole, e: string) => {
    if (e[0] !== '#') return NAMED[e.toLowerCase()] ?? whole;
    const code = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** The line of a position (counted only when an error names it). */
function lineAt(text: string, pos: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < pos; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function finished(e: Open): OfxValue {
  if (e.children.length === 0) return decodeEntities(e.text.trim());
  const out: OfxNode = {};
  for (const [name, value] of e.children) {
    const existing = out[name];
    if (existing === undefined) out[name] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else out[name] = [existing, value];
  }
  return out;
}

/** The `<OFX>` element of the text as a tree; throws OfxMarkupError when there is none or the markup is broken. */
export function readOfxMarkup(text: string): OfxNode {
  const start = text.search(/<OFX>/i);
  if (start < 0) throw new OfxMarkupError('no <OFX> element', 1);
  const stack: Open[] = [];
  let root: OfxValue | undefined;
  const close = () => {
    const done = stack.pop()!;
    const value = finished(done);
    if (stack.length === 0) root ??= value;
    else stack[stack.length - 1]!.children.push([done.name, value]);
  };
  const fail = (message: string, at: number): never => {
    throw new OfxMarkupError(message, lineAt(text, at));
  };
  let pos = start;
  while (pos < text.length) {
    const lt = text.indexOf('<', pos);
    const top = stack[stack.length - 1];
    if (top && lt !== pos) append(top, text.slice(pos, lt < 0 ? text.length : lt));
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      if (end < 0) fail('a comment that does not end', lt);
      pos = end + 3;
      continue;
    }
    if (text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt + 9);
      if (end < 0) fail('a CDATA section that does not end', lt);
      // Text as written: entities inside a CDATA section are not entities.
      if (top) append(top, text.slice(lt + 9, end).replace(/&/g, '&amp;'));
      pos = end + 3;
      continue;
    }
    if (text.startsWith('<?', lt)) {
      const end = text.indexOf('?>', lt + 2);
      if (end < 0) fail('a processing instruction that does not end', lt);
      pos = end + 2;
      continue;
    }
    const gt = text.indexOf('>', lt + 1);
    const next = text.indexOf('<', lt + 1);
    if (gt < 0 || (next >= 0 && next < gt)) fail('a tag that does not end', lt);
    const body = text.slice(lt + 1, gt);
    pos = gt + 1;
    if (body.startsWith('/')) {
      const name = body.slice(1).trim();
      if (!NAME.test(name)) fail(`"</${name.slice(0, 40)}>" is not a closing tag`, lt);
      let at = stack.length - 1;
      while (at >= 0 && stack[at]!.name !== name) at--;
      if (at < 0) continue;
      while (stack.length > at) close();
      if (stack.length === 0) break;
      continue;
    }
    // An XML empty element (`<NAME/>`), or a tag with attributes: the name is what comes before them.
    const selfClosing = body.endsWith('/');
    const inner = selfClosing ? body.slice(0, -1) : body;
    const space = inner.search(/\s/);
    const name = space < 0 ? inner : inner.slice(0, space);
    if (!NAME.test(name)) fail(`"<${body.slice(0, 40)}>" is not a tag`, lt);
    if (top && top.children.length === 0 && top.solid) close();
    if (stack.length >= MAX_DEPTH) fail(`elements nested deeper than ${MAX_DEPTH}`, lt);
    if (stack.length === 0 && root !== undefined) break;
    stack.push({ name, text: '', solid: false, children: [] });
    if (selfClosing) close();
  }
  while (stack.length > 0) close();
  if (root === undefined || typeof root !== 'object' || Array.isArray(root)) {
    throw new OfxMarkupError('the <OFX> element is empty', lineAt(text, start));
  }
  return root;
}
